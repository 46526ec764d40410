// End-to-end test of online play: the Qi server (env QI_SERVER_BIN, default
// <repo>/target/release/qi-server) serving the built app (QI_DIST), two players in their own
// browser contexts playing through an invite link, and a third watching, in headless Chromium.
// The test fails (never skips) when the server binary or the built online page is missing.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
  DIST,
  WAIT_MS,
  click,
  drag,
  moveList,
  seriousAxeViolations,
  sharedSetup,
  startServer,
  waitForPiece,
} from '../support.mjs';

const TEST_TIMEOUT = 240_000;

const setup = sharedSetup({ before, after }, {
  server: 'qi',
  qi: { tag: 'online', pages: ['index.html', 'online/index.html', 'tv/index.html'], readyPath: 'online/' },
});

/** Opens `url` in a fresh browser context (its own storage: another person), and waits until
 * the page is connected (unless `connected` is false); `theme` `dark` for the dark theme. */
async function person(url, viewport = { width: 1280, height: 900 }, connected = true, theme = 'light') {
  const context = await setup.browser.newContext({ viewport, locale: 'en-US' });
  context.setDefaultTimeout(WAIT_MS);
  if (theme === 'dark') {
    await context.addInitScript(() => {
      if (!localStorage.getItem('qi.settings')) localStorage.setItem('qi.settings', 'theme=dark');
    });
  }
  // The sounds played, as the app's test hook reports them (src/sound.rs).
  await context.addInitScript(() => {
    window.qiSoundLog = [];
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A refused sign-in (401: a wrong password, as the accounts test types on purpose) is an
    // answer the page reads, but the browser logs it as a failed resource all the same.
    if (message.type() === 'error' && !/status of 401/.test(message.text())) {
      errors.push(`console.error: ${message.text()}`);
    }
  });
  await page.goto(url);
  if (connected) await page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
  return { context, page, errors };
}

/** Fills in the lobby's form as `name`: `game` in `seat`, listed for anyone or by invite only
 * (`listed` true or false; left as it is when not given). Creating it is left to the caller. */
async function fillGameForm(page, { name, game, seat = 'first', listed }) {
  await page.locator('[data-testid="name"]').fill(name);
  await page.locator(`[data-testid="lobby"] [data-game="${game}"]`).click();
  await page.locator('[data-testid="seat"]').selectOption(seat);
  if (listed !== undefined) await page.locator('[data-testid="listed"]').selectOption(listed ? 'anyone' : 'invite');
}

/** The result the status panel shows (`white`, `black`, `draw`...), once there is one. */
async function waitForResult(page) {
  const marker = page.locator('[data-testid="status"] [data-result]');
  await marker.waitFor();
  return marker.getAttribute('data-result');
}

/** The square at the top-left corner of the board: tells the orientation. */
async function topLeft(page) {
  return page.locator('.board [data-square]').first().getAttribute('data-square');
}

test('two players play through an invite link while a third watches', { timeout: TEST_TIMEOUT }, async () => {
  const alice = await person(`${setup.base}online/`);
  const people = [alice];
  try {
    // Alice creates a chess game, playing White.
    await alice.page.locator('[data-testid="lobby"]').waitFor();
    await fillGameForm(alice.page, { name: 'Alice', game: 'chess' });
    await alice.page.locator('[data-action="create"]').click();
    const invite = await alice.page.locator('[data-testid="invite-link"]').inputValue();
    const watch = await alice.page.locator('[data-testid="watch-link"]').first().inputValue();
    const id = new URL(watch).searchParams.get('game');
    assert.match(invite, /\/online\/\?game=[^&]+&invite=[^&]+$/);
    assert.equal(new URL(alice.page.url()).search, `?game=${id}`, 'no token in the address bar');
    assert.equal(await topLeft(alice.page), 'a8', 'White at the bottom');

    // Bob opens the invite, gives his name and joins: Black at the bottom.
    const bob = await person(invite, { width: 360, height: 800 });
    people.push(bob);
    await bob.page.locator('[data-testid="name"]').fill('Bob');
    await bob.page.locator('[data-action="join"]').click();
    await bob.page.locator('.board [data-square]').first().waitFor();
    await bob.page.waitForFunction((game) => location.search === `?game=${game}`, id);
    assert.equal(await topLeft(bob.page), 'h1', 'Black at the bottom');
    await alice.page.locator('[data-testid="name-second"]', { hasText: 'Bob' }).waitFor();
    await bob.page.locator('[data-testid="name-first"]', { hasText: 'Alice' }).waitFor();

    // Carol watches.
    const carol = await person(watch);
    people.push(carol);
    await carol.page.locator('.board [data-square]').first().waitFor();
    await alice.page.locator('[data-testid="watchers"][data-count="1"]').waitFor();
    assert.equal(await carol.page.locator('[data-action="resign"]').count(), 0, 'spectators cannot resign');
    // axe-core (issue 19): the game page as a player at 1280 and 360 px and as a spectator,
    // in the light theme, and as a spectator in the dark one.
    const dan = await person(watch, { width: 360, height: 800 }, true, 'dark');
    people.push(dan);
    await dan.page.locator('.app.online.theme-dark .board [data-square]').first().waitFor();
    for (const [who, page] of [['Alice', alice.page], ['Bob', bob.page], ['Carol', carol.page], ['Dan', dan.page]]) {
      assert.deepEqual(await seriousAxeViolations(page), [], `${who}'s page`);
    }

    // Black cannot move first: his move waits (a premove), shown on his board only, and goes
    // the instant White has moved.
    await drag(bob.page, 'e7', 'e5');
    await waitForPiece(bob.page, 'e7', 'bP');
    await bob.page.locator('.board [data-square="e5"][data-premove]').waitFor();
    assert.equal(await bob.page.locator('.board [data-premove]').count(), 2);
    assert.equal(await carol.page.locator('.board [data-premove]').count(), 0);

    // Fool's mate, each move seen by the other two (Black's first is the queued one).
    const moves = [
      [alice, 'f2', 'f3', 'wP'],
      [bob, 'e7', 'e5', 'bP', 'queued'],
      [alice, 'g2', 'g4', 'wP'],
      [bob, 'd8', 'h4', 'bQ'],
    ];
    for (const [mover, from, to, piece, queued] of moves) {
      if (!queued) await drag(mover.page, from, to);
      for (const someone of people) {
        await waitForPiece(someone.page, to, piece);
        await waitForPiece(someone.page, from, null);
      }
      // Alice reloads after her second move: back in her seat, with the moves so far.
      if (to === 'g4') {
        // Bob's tab says it is his move, and he heard hers.
        await bob.page.waitForFunction(() => document.title.startsWith('● Your move'));
        assert.match(await bob.page.locator("link[rel~='icon']").getAttribute('href'), /^data:image\/svg/, 'the icon says so too');
        assert.ok((await bob.page.evaluate(() => window.qiSoundLog)).includes('move'), 'Bob hears the moves');
        await alice.page.reload();
        await alice.page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
        await waitForPiece(alice.page, 'g4', 'wP');
        assert.equal(await topLeft(alice.page), 'a8', 'still White after a reload');
        await alice.page.locator('[data-testid="name-first"]', { hasText: 'Alice' }).waitFor();
      }
    }
    for (const someone of people) {
      assert.equal(await waitForResult(someone.page), 'black');
      assert.match(await someone.page.locator('[data-testid="status"] .result').innerText(), /Black wins by checkmate/);
    }
    assert.deepEqual(await moveList(carol.page), ['f3', 'e5', 'g4', 'Qh4#']);
    for (const someone of [bob, carol]) {
      await someone.page.waitForFunction(() => window.qiSoundLog.includes('game-end'));
    }
    assert.doesNotMatch(await bob.page.title(), /Your move/, 'the game is over');
    assert.doesNotMatch(await bob.page.locator("link[rel~='icon']").getAttribute('href'), /^data:/, 'the own icon again');
    assert.equal(await alice.page.locator('[data-action="rematch"]').count(), 1, 'a rematch is offered');
    for (const someone of people) {
      assert.deepEqual(someone.errors, [], 'the page reported errors');
    }
  } finally {
    for (const someone of people) await someone.context.close();
  }
});

test('quick pairing matches two seekers of the same game, rules and clock; the lobby remembers the choices', { timeout: TEST_TIMEOUT }, async () => {
  const ann = await person(`${setup.base}online/`);
  const ben = await person(`${setup.base}online/`, { width: 360, height: 800 });
  const people = [ann, ben];
  try {
    for (const [someone, name] of [[ann, 'Ann'], [ben, 'Ben']]) {
      const { page } = someone;
      await page.locator('[data-testid="lobby"]').waitFor();
      await page.locator('[data-testid="name"]').fill(name);
      await page.locator('[data-testid="lobby"] [data-game="gomoku"]').click();
      await page.locator('select[data-rule="rule"]').selectOption('renju');
      await page.locator('[data-testid="clock"]').selectOption('1');
      await page.locator('[data-action="seek"]').click();
    }
    // Both are in the same game: gomoku, with clocks, each name on the other's screen.
    const ids = [];
    for (const { page } of people) {
      const play = page.locator('main.play[data-current-game="gomoku"]');
      await play.waitFor();
      ids.push(await play.getAttribute('data-game-id'));
      assert.equal(await page.locator('.board [data-square]').count(), 225);
      assert.equal(await page.locator('[data-clock]').count(), 2, 'the clock chosen');
      assert.match(await page.locator('.game-label').innerText(), /^Gomoku · \d+\+\d+ · .*renju/i);
    }
    assert.equal(ids[0], ids[1], 'paired into one game');
    await ann.page.locator('[data-testid^="name-"]', { hasText: 'Ben' }).waitFor();
    await ben.page.locator('[data-testid^="name-"]', { hasText: 'Ann' }).waitFor();
    // Ann's lobby, opened again, remembers what she picked.
    const lobby = await ann.context.newPage();
    await lobby.goto(`${setup.base}online/`);
    await lobby.locator('[data-testid="lobby"]').waitFor();
    assert.equal(await lobby.locator('[data-testid="lobby"] [data-game="gomoku"]').getAttribute('aria-pressed'), 'true');
    assert.equal(await lobby.locator('select[data-rule="rule"]').inputValue(), 'renju');
    assert.equal(await lobby.locator('[data-testid="clock"]').inputValue(), '1');
    assert.equal(await lobby.locator('[data-testid="name"]').inputValue(), 'Ann');
    for (const someone of people) {
      assert.deepEqual(someone.errors, [], 'the page reported errors');
    }
  } finally {
    for (const someone of people) await someone.context.close();
  }
});

/** The chat lines `page` shows: `who: said` each. */
async function chatLines(page) {
  return page.locator('[data-testid="chat-line"]').allInnerTexts();
}

/** Waits until `page` shows a chat line holding `text`. */
async function waitForLine(page, text) {
  await page.locator('[data-testid="chat-line"]', { hasText: text }).waitFor();
}

test('players chat apart from spectators, quick messages read in each reader\'s language, takebacks declined and accepted', { timeout: TEST_TIMEOUT }, async () => {
  const alice = await person(`${setup.base}online/`);
  const people = [alice];
  try {
    await alice.page.locator('[data-testid="lobby"]').waitFor();
    await fillGameForm(alice.page, { name: 'Alice', game: 'chess' });
    await alice.page.locator('[data-action="create"]').click();
    const invite = await alice.page.locator('[data-testid="invite-link"]').inputValue();
    const watch = await alice.page.locator('[data-testid="watch-link"]').first().inputValue();
    // Bob reads Vietnamese.
    const bob = await person(invite, { width: 360, height: 800 });
    people.push(bob);
    await bob.page.locator('[data-testid="language"]').selectOption('vi');
    await bob.page.locator('[data-testid="name"]').fill('Bob');
    await bob.page.locator('[data-action="join"]').click();
    await bob.page.locator('.board [data-square]').first().waitFor();
    const carol = await person(watch);
    people.push(carol);
    await carol.page.locator('[data-testid="chat"][data-room="spectators"]').waitFor();
    await alice.page.locator('[data-testid="chat"][data-room="players"]').waitFor();

    // A quick message goes as a code: each reads it in their own language.
    await alice.page.locator('[data-testid="chat"] [data-quick="good_luck"]').click();
    await waitForLine(alice.page, 'Good luck!');
    await waitForLine(bob.page, 'Chúc may mắn!');
    assert.deepEqual(await chatLines(bob.page), ['Alice: Chúc may mắn!']);
    // Typed text is shown as text, never as markup.
    await bob.page.locator('[data-testid="chat-input"]').fill('<b>chào</b> bạn');
    await bob.page.locator('[data-action="send-chat"]').click();
    await waitForLine(alice.page, '<b>chào</b> bạn');
    assert.equal(await alice.page.locator('[data-testid="chat-line"] b').count(), 0, 'no markup');
    assert.equal(await bob.page.locator('[data-testid="chat-input"]').inputValue(), '', 'the field empties');
    // Carol writes in the spectators' room: the players never see it, and she never sees theirs.
    await carol.page.locator('[data-testid="chat-input"]').fill('go Alice');
    await carol.page.locator('[data-testid="chat-input"]').press('Enter');
    await waitForLine(carol.page, 'go Alice');
    assert.deepEqual(await chatLines(carol.page), ['Anonymous: go Alice']);
    await alice.page.locator('[data-testid="chat"] [data-quick="thanks"]').click();
    await waitForLine(bob.page, 'Cảm ơn!');
    for (const player of [alice, bob]) {
      assert.equal((await chatLines(player.page)).length, 3);
      assert.ok(!(await chatLines(player.page)).some((line) => line.includes('go Alice')));
    }
    // A line that does not show as itself is refused with the reason, and not sent.
    await alice.page.locator('[data-testid="chat-input"]').fill('a\u202Eb');
    await alice.page.locator('[data-action="send-chat"]').click();
    await alice.page.locator('[data-testid="notice"]', { hasText: 'Your message was not sent.' }).waitFor();
    // Bob mutes: the lines go from his screen.
    await bob.page.locator('[data-action="mute"]').click();
    assert.deepEqual(await chatLines(bob.page), []);
    await bob.page.locator('[data-action="mute"]').click();

    // Takeback: Bob declines Alice's request; later Alice accepts Bob's.
    await drag(alice.page, 'e2', 'e4');
    await waitForPiece(bob.page, 'e4', 'wP');
    await drag(bob.page, 'e7', 'e5');
    await waitForPiece(alice.page, 'e5', 'bP');
    await alice.page.locator('[data-action="takeback"]').click();
    await bob.page.locator('[data-testid="takeback-offer"]', { hasText: 'Đối thủ xin đi lại một nước.' }).waitFor();
    await carol.page.locator('[data-testid="takeback-offer"]', { hasText: 'White asks to take back a move.' }).waitFor();
    await bob.page.locator('[data-action="decline-takeback"]').click();
    await alice.page.locator('[data-testid="notice"]', { hasText: 'Your takeback request was declined.' }).waitFor();
    assert.equal(await alice.page.locator('[data-action="takeback"]').isEnabled(), true);
    await drag(alice.page, 'g1', 'f3');
    await waitForPiece(bob.page, 'f3', 'wN');
    await bob.page.locator('[data-action="takeback"]').click();
    await alice.page.locator('[data-testid="takeback-offer"]', { hasText: 'Your opponent asks to take back a move.' }).waitFor();
    await alice.page.locator('[data-action="accept-takeback"]').click();
    // Bob's e5 and Alice's Nf3 after it are taken back, for everyone; Bob moves again.
    for (const someone of people) {
      await waitForPiece(someone.page, 'e7', 'bP');
      await waitForPiece(someone.page, 'g1', 'wN');
      await waitForPiece(someone.page, 'e4', 'wP');
      assert.deepEqual(await moveList(someone.page), ['e4']);
    }
    await drag(bob.page, 'c7', 'c5');
    await waitForPiece(alice.page, 'c5', 'bP');
    // The chat is still there after a reload, and a mute stays.
    await bob.page.locator('[data-action="mute"]').click();
    await bob.page.reload();
    await bob.page.locator('[data-action="mute"][aria-pressed="true"]').waitFor();
    await bob.page.locator('.chat-note', { hasText: 'Đã ẩn trò chuyện' }).waitFor();
    assert.deepEqual(await chatLines(bob.page), []);
    await bob.page.locator('[data-action="mute"]').click();
    await waitForLine(bob.page, 'Chúc may mắn!');
    assert.equal((await chatLines(bob.page)).length, 3);
    for (const someone of people) {
      assert.deepEqual(someone.errors, [], 'the page reported errors');
    }
  } finally {
    for (const someone of people) await someone.context.close();
  }
});

test('the lobby lists an open challenge within a second; one click accepts it, and a spectator finds the game under games now', { timeout: TEST_TIMEOUT }, async () => {
  const viewer = await person(`${setup.base}online/`, { width: 360, height: 800 });
  const people = [viewer];
  try {
    await viewer.page.locator('[data-testid="challenges"]').waitFor();
    // Ann posts a public xiangqi challenge; Ben, in the lobby, sees it within a second.
    const ann = await person(`${setup.base}online/`);
    people.push(ann);
    await fillGameForm(ann.page, { name: 'Ann', game: 'xiangqi', listed: true });
    const ben = await person(`${setup.base}online/`);
    people.push(ben);
    await ben.page.locator('[data-testid="challenges"]').waitFor();
    await ben.page.locator('[data-testid="name"]').fill('Ben');
    const posted = Date.now();
    await ann.page.locator('[data-action="create"]').click();
    const row = ben.page.locator('[data-testid="challenge"]', { hasText: 'Ann' });
    await row.waitFor();
    const seenAfter = Date.now() - posted;
    assert.ok(seenAfter < 1000, `seen after ${seenAfter} ms`);
    assert.match(await row.innerText(), /Xiangqi/);
    assert.match(await row.innerText(), /plays Red/);
    // A private game never shows.
    const hidden = await person(`${setup.base}online/`);
    people.push(hidden);
    await hidden.page.locator('[data-testid="listed"]').selectOption('invite');
    await hidden.page.locator('[data-action="create"]').click();
    await hidden.page.locator('main.play').waitFor();
    // The filter shows one kind of game.
    await ben.page.locator('[data-filter="chess"]').click();
    await ben.page.locator('[data-testid="challenge"]').waitFor({ state: 'detached' });
    await ben.page.locator('[data-filter="all"]').click();
    await row.waitFor();
    assert.equal(await ben.page.locator('[data-testid="challenge"]').count(), 1, 'only the public game');
    // One click: Ben plays Black against Ann.
    await row.locator('[data-action="accept"]').click();
    await ben.page.locator('main.play[data-current-game="xiangqi"]').waitFor();
    await ben.page.locator('[data-testid="name-first"]', { hasText: 'Ann' }).waitFor();
    await ann.page.locator('[data-testid="name-second"]', { hasText: 'Ben' }).waitFor();
    // The challenge leaves the lobby; the game shows under games now, and one click watches it.
    await viewer.page.locator('[data-testid="challenge"]').waitFor({ state: 'detached' });
    const live = viewer.page.locator('[data-testid="live-game"]', { hasText: 'Ann – Ben' });
    await live.waitFor();
    await drag(ann.page, 'h3', 'e3');
    await waitForPiece(ben.page, 'e3', 'rC');
    await viewer.page.locator('[data-testid="live-game"] .preview-board [data-square="e3"] > .piece[data-piece="rC"]').waitFor();
    await live.locator('a').click();
    await viewer.page.locator('main.play[data-current-game="xiangqi"]').waitFor();
    await waitForPiece(viewer.page, 'e3', 'rC');
    await ann.page.locator('[data-testid="watchers"][data-count="1"]').waitFor();
    for (const someone of people) {
      assert.deepEqual(someone.errors, [], 'the page reported errors');
    }
  } finally {
    for (const someone of people) await someone.context.close();
  }
});

test('served by the Qi server, the app shows a game being played live in its watch corner; a click watches it', { timeout: TEST_TIMEOUT }, async () => {
  const ann = await person(`${setup.base}online/`);
  const people = [ann];
  try {
    await fillGameForm(ann.page, { name: 'Ann', game: 'chess', listed: true });
    await ann.page.locator('[data-action="create"]').click();
    const bo = await person(`${setup.base}online/`);
    people.push(bo);
    await bo.page.locator('[data-testid="name"]').fill('Bo');
    await bo.page.locator('[data-testid="challenge"]', { hasText: 'Ann' }).locator('[data-action="accept"]').click();
    await bo.page.locator('main.play').waitFor();
    await drag(ann.page, 'e2', 'e4');
    await waitForPiece(bo.page, 'e4', 'wP');
    // A spectator makes it the most watched game on the server (the corner shows that one;
    // the earlier tests' games have nobody watching any more).
    const watch = await ann.page.locator('[data-testid="watch-link"]').first().inputValue();
    const fan = await person(watch);
    people.push(fan);
    await waitForPiece(fan.page, 'e4', 'wP');
    // Someone opens the app itself: its corner shows the game, live.
    const viewer = await person(setup.base, { width: 1280, height: 900 }, false);
    people.push(viewer);
    const corner = viewer.page.frameLocator('[data-testid="watch-corner"]');
    const live = corner.locator('[data-testid="live-game"]', { hasText: 'Ann – Bo' });
    await live.waitFor();
    await corner.locator('.preview-board [data-square="e4"] > .piece[data-piece="wP"]').waitFor();
    // Shown now that there is a game to watch: in view, after the move list, with a focus ring.
    const frame = viewer.page.locator('[data-testid="watch-corner"][data-live="true"]');
    await frame.waitFor({ state: 'visible' });
    assert.ok((await frame.boundingBox()).height > 100);
    const list = await viewer.page.locator('.move-list').boundingBox();
    assert.ok((await frame.boundingBox()).y >= list.y + list.height - 0.5, 'the frame comes after the move list');
    await frame.focus();
    const ring = await frame.evaluate((el) => getComputedStyle(el).outlineStyle);
    assert.notEqual(ring, 'none', 'the focused frame shows a focus ring');
    await viewer.page.screenshot({ path: '/tmp/qi-watch-live-1280.png', fullPage: true });
    await drag(bo.page, 'e7', 'e5');
    await corner.locator('.preview-board [data-square="e5"] > .piece[data-piece="bP"]').waitFor();
    // A click watches it on the online page, in the whole window.
    await live.locator('a').click();
    await viewer.page.locator('main.play[data-current-game="chess"]').waitFor();
    await waitForPiece(viewer.page, 'e5', 'bP');
    assert.match(viewer.page.url(), /\/online\/\?game=/);
    for (const someone of people) {
      assert.deepEqual(someone.errors, [], 'the page reported errors');
    }
  } finally {
    for (const someone of people) await someone.context.close();
  }
});

/** Registers `name` in the lobby's account box and waits until the page plays as it. */
async function register(page, name, password) {
  await page.locator('[data-testid="account"] [data-testid="account-name"]').fill(name);
  await page.locator('[data-testid="account-password"]').fill(password);
  await page.locator('[data-action="register"]').click();
  await page.locator(`[data-testid="signed-in"][data-name="${name}"]`).waitFor();
  await page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
  await page.waitForFunction(
    (name) => document.querySelector('[data-testid="name"]')?.value === name,
    name,
  );
}

/** The profile's rating in `kind`: `{ games, rating, provisional }`. */
async function profileRating(page, kind) {
  const card = page.locator(`[data-testid="rating"][data-kind="${kind}"]`);
  const shown = await card.getAttribute('data-rating');
  return {
    games: Number(await card.getAttribute('data-games')),
    rating: Number.parseInt(shown, 10),
    provisional: shown.endsWith('?'),
  };
}

test('two accounts play a rated game from the lobby: no takeback, and both profiles show it with the new ratings', { timeout: TEST_TIMEOUT }, async () => {
  const suffix = Math.random().toString(36).slice(2, 8);
  const names = [`Ra${suffix}`, `Rb${suffix}`];
  const password = 'a good password';
  const ann = await person(`${setup.base}online/`);
  const ben = await person(`${setup.base}online/`);
  const people = [ann, ben];
  try {
    // Signed out, a rated game cannot be asked for.
    await ann.page.locator('[data-testid="account"]').waitFor();
    assert.equal(await ann.page.locator('[data-testid="rated"]').isDisabled(), true);
    // A wrong password is said plainly.
    await ann.page.locator('[data-testid="account-name"]').fill(`Nobody${suffix}`);
    await ann.page.locator('[data-testid="account-password"]').fill(password);
    await ann.page.locator('[data-action="sign-in"]').click();
    const refusal = ann.page.locator('[data-testid="account-error"][data-code="wrong_credentials"]');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /Wrong username or password/);
    await register(ann.page, names[0], password);
    await register(ben.page, names[1], password);
    assert.equal(await ann.page.locator('[data-testid="name"]').isDisabled(), true, 'the username is the name');

    // Ann posts a rated gomoku challenge, playing first (Black).
    await ann.page.locator('[data-testid="lobby"] [data-game="gomoku"]').click();
    await ann.page.locator('[data-testid="seat"]').selectOption('first');
    await ann.page.locator('[data-testid="listed"]').selectOption('anyone');
    await ann.page.locator('[data-testid="rated"]').check();
    await ann.page.locator('[data-action="create"]').click();
    await ann.page.locator('main.play[data-current-game="gomoku"]').waitFor();
    // Ben sees it as rated, with Ann's provisional rating, and takes it.
    const row = ben.page.locator('[data-testid="challenge"][data-rated="true"]', { hasText: names[0] });
    await row.waitFor();
    assert.match(await row.innerText(), /1500\?/);
    assert.match(await row.innerText(), /Rated/);
    await row.locator('[data-action="accept"]').click();
    await ben.page.locator('main.play[data-current-game="gomoku"]').waitFor();
    await ann.page.locator('[data-testid="name-second"]', { hasText: names[1] }).waitFor();
    await ben.page.locator('[data-testid="name-first"]', { hasText: names[0] }).waitFor();
    for (const { page } of people) {
      assert.match(await page.locator('.game-label').innerText(), /Rated/);
      // Each player's rating beside their name.
      for (const seat of ['first', 'second']) {
        assert.equal(await page.locator(`[data-testid="rating-${seat}"]`).innerText(), '(1500?)');
      }
    }

    // Five in a row for Ann; no takeback offered on the way.
    const black = ['h8', 'i8', 'j8', 'k8', 'l8'];
    const white = ['h9', 'i9', 'j9', 'k9'];
    for (let i = 0; i < black.length; i += 1) {
      await click(ann.page, black[i]);
      for (const { page } of people) await waitForPiece(page, black[i], 'b');
      if (i < white.length) {
        await click(ben.page, white[i]);
        for (const { page } of people) await waitForPiece(page, white[i], 'w');
      }
      if (i === 1) {
        for (const { page } of people) {
          await page.locator('[data-action="resign"]').waitFor();
          assert.equal(await page.locator('[data-action="takeback"]').count(), 0, 'no takeback in a rated game');
        }
      }
    }
    for (const { page } of people) assert.equal(await waitForResult(page), 'black');

    // Each profile, by the address the server redirects: the game and the rating it moved.
    const expected = [['won', (r) => r > 1500], ['lost', (r) => r < 1500]];
    for (const [index, someone] of people.entries()) {
      const { page } = someone;
      await page.goto(`${setup.base}online/@/${names[index]}`);
      await page.locator('[data-testid="profile-name"]', { hasText: names[index] }).waitFor();
      assert.equal(new URL(page.url()).searchParams.get('player'), names[index]);
      const game = page.locator('[data-testid="profile-game"]').first();
      await game.waitFor();
      assert.equal(await game.getAttribute('data-rated'), 'true');
      assert.equal(await game.getAttribute('data-result'), expected[index][0]);
      assert.equal(await game.locator('[data-action="opponent-profile"]').innerText(), names[1 - index]);
      assert.match(await game.locator('[data-action="review"]').getAttribute('href'), /^\.\.\/\?/);
      const rating = await profileRating(page, 'gomoku');
      assert.equal(rating.games, 1);
      assert.ok(expected[index][1](rating.rating), `${names[index]}: ${rating.rating}`);
      assert.equal(rating.provisional, true);
      const graph = page.locator('[data-kind="gomoku"] [data-testid="rating-graph"]');
      assert.match(await graph.getAttribute('aria-label'), /^Gomoku rating from 1500\? to \d+\?? after one game$/);
      assert.equal(await page.locator('[data-testid="rating"][data-kind="chess"][data-games="0"]').count(), 1);
    }
    // Signed-in lobby: the ratings in the account box follow.
    await ann.page.goto(`${setup.base}online/`);
    await ann.page.locator('[data-testid="account"] [data-kind="gomoku"]').waitFor();
    assert.notEqual(await ann.page.locator('[data-testid="account"] [data-kind="gomoku"]').getAttribute('data-rating'), '1500?');
    // Logging out gives the sign-in form back, and the rated box is off again.
    await ann.page.locator('[data-action="log-out"]').click();
    await ann.page.locator('[data-testid="sign-in-form"]').waitFor();
    await ann.page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
    assert.equal(await ann.page.locator('[data-testid="rated"]').isDisabled(), true);
    for (const someone of people) {
      assert.deepEqual(someone.errors, [], 'the page reported errors');
    }
  } finally {
    for (const someone of people) await someone.context.close();
  }
});

test('on a static host the page says that online play needs the server', { timeout: TEST_TIMEOUT }, async () => {
  const host = await startServer(DIST);
  const someone = await person(`${host.url}online/?game=abc`, { width: 360, height: 800 }, false);
  try {
    const card = someone.page.locator('[data-testid="needs-server"]');
    await card.waitFor();
    assert.match(await card.innerText(), /Online play is not available: the game server cannot be reached/);
    assert.doesNotMatch(await card.innerText(), /scripts\//);
    await someone.page.locator('[data-testid="connection"][data-state="retrying"]').waitFor();
    // The only complaints are the browser's own about the refused WebSocket.
    const others = someone.errors.filter((error) => !/WebSocket connection to .* failed/.test(error));
    assert.deepEqual(others, []);
  } finally {
    await someone.context.close();
    await host.close();
  }
});
