// End-to-end tests of the first screen as a new player meets it (issue 46): "Play the computer"
// in one click with its level described, the watch corner only when a game is being played
// (never an empty frame, never the browser's error page), a refused move's reason gone once the
// player does something else, each gomoku opening step saying what to do, the game-over box
// keeping the board in view, and words for players on the online page when no server answers.
// Run: `node --test e2e/tests/first-screen.test.mjs` (env QI_DIST, and QI_SERVER_BIN for the watch
// corner, which needs the Qi server; dist must hold index.html, online/ and tv/).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
  drag,
  openApp,
  sharedSetup,
  square,
  startQiServer,
  statusText,
  waitForPlies,
} from '../support.mjs';

const TEST_TIMEOUT = 180_000;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 640 };

const setup = sharedSetup({ before, after });

const { withApp } = setup;

/** Whether `box` lies wholly inside the viewport. */
function inView(box, viewport) {
  return box && box.y >= -0.5 && box.x >= -0.5 && box.y + box.height <= viewport.height + 0.5
    && box.x + box.width <= viewport.width + 0.5;
}

for (const viewport of [DESKTOP, PHONE]) {
  test(`at ${viewport.width}x${viewport.height} "Play the computer" is on the first screen, names its level, and starts a game in one click`, { timeout: TEST_TIMEOUT }, () =>
    withApp({ viewport }, async (page) => {
      const button = page.locator('[data-action="play-computer"]');
      assert.ok(inView(await button.boundingBox(), viewport), 'the button is on the first screen');
      assert.equal((await button.textContent()).trim(), 'Play the computer');
      const note = page.locator('[data-testid="play-computer-level"]');
      assert.equal((await note.textContent()).trim(),
        'Level 2: Casual: looks a little further, still blunders (chess: about 900 Elo)');
      await page.screenshot({ path: `/tmp/qi-first-screen-${viewport.width}.png` });
      await button.click();
      // A game against the computer: the person has White, the computer answers.
      await button.waitFor({ state: 'detached' });
      assert.equal(await page.locator('[data-setting="mode"]').first().inputValue(), 'computer-second');
      await drag(page, 'e2', 'e4');
      await waitForPlies(page, 2);
    }));
}

test('the levels are described where they are chosen, in each language', { timeout: TEST_TIMEOUT }, () =>
  withApp({ viewport: DESKTOP }, async (page) => {
    await page.locator('[data-action="new-game"]').click();
    const dialog = page.locator('.dialog.new-game');
    await dialog.locator('[data-setting="mode"]').selectOption('computer-second');
    const options = await dialog.locator('[data-setting="level"] option').allTextContents();
    assert.equal(options.length, 6);
    // Each level by its name, short enough for the list on a phone (e2e/tests/fit.test.mjs); the
    // chosen one's whole line under the list.
    assert.equal(options[0], '1 — Beginner');
    assert.equal(options[5], '6 — Full strength');
    await dialog.locator('[data-setting="level"]').selectOption('4');
    assert.match(await dialog.locator('[data-testid="level-note"]').textContent(), /^Strong club player/);
    await page.screenshot({ path: '/tmp/qi-new-game-levels.png' });
    await dialog.locator('[data-action="start-game"]').click();
    // The level chosen is the one the first screen's button offers next time.
    await page.locator('.options [data-setting="mode"]').selectOption('hotseat');
    assert.match(await page.locator('[data-testid="play-computer-level"]').textContent(), /^Level 4: Strong club player/);
    // In Chinese and Vietnamese too.
    for (const [lang, words] of [['zh-CN', /^难度 4：?.*业余强手/], ['vi', /^Cấp độ 4: Câu lạc bộ mạnh/]]) {
      await page.locator('[data-setting="language"]').selectOption(lang);
      assert.match(await page.locator('[data-testid="play-computer-level"]').textContent(), words);
    }
  }));

test('a refused move\'s reason goes once the player asks for a hint or resigns', { timeout: TEST_TIMEOUT }, () =>
  withApp({ viewport: DESKTOP }, async (page) => {
    const reason = /Another piece blocks the way/;
    // The rook on a1 cannot pass its own pawn.
    await drag(page, 'a1', 'a4');
    assert.match(await statusText(page), reason);
    await page.locator('[data-action="hint"]').click();
    await page.waitForFunction(() => !/blocks the way/.test(document.querySelector('[data-testid="status"]').textContent));
    await drag(page, 'a1', 'a4');
    assert.match(await statusText(page), reason);
    await page.locator('[data-action="resign"]').click();
    await page.locator('[data-action="confirm-resign"]').click();
    await page.locator('[data-testid="game-over"]').waitFor();
    const status = await statusText(page);
    assert.match(status, /Black wins/);
    assert.doesNotMatch(status, reason);
  }));

for (const viewport of [DESKTOP, PHONE]) {
  test(`at ${viewport.width}x${viewport.height} the game-over box does not scroll the board away`, { timeout: TEST_TIMEOUT }, () =>
    withApp({ viewport }, async (page) => {
      for (const [from, to] of [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']]) {
        await drag(page, from, to);
      }
      const box = page.locator('[data-testid="game-over"]');
      await box.waitFor();
      // Its first button has the focus (Enter starts a new game), and nothing scrolled.
      await page.waitForFunction(() => document.activeElement?.closest('[data-testid="game-over"]'));
      await page.waitForTimeout(300);
      assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page scrolled');
      const board = await page.locator('.board').boundingBox();
      assert.ok(board.y >= 0, `the board's top is off screen: ${JSON.stringify(board)}`);
      if (viewport === DESKTOP) {
        // Beside the board, whole, on the first screen; the board whole too.
        assert.ok(inView(board, viewport), `the board ${JSON.stringify(board)}`);
        const card = await box.boundingBox();
        assert.ok(inView(card, viewport), `the box ${JSON.stringify(card)}`);
        assert.ok(card.x >= board.x + board.width - 0.5, 'the box is beside the board');
      }
      await page.screenshot({ path: `/tmp/qi-game-over-${viewport.width}.png` });
    }));
}

test('gomoku swap2 against the computer: the status says to place the three opening stones', { timeout: TEST_TIMEOUT }, () =>
  withApp({ viewport: DESKTOP }, async (page) => {
    await page.locator('[data-action="new-game"]').click();
    const dialog = page.locator('.dialog.new-game');
    await dialog.locator('[data-new-game="gomoku"]').click();
    await dialog.locator('[data-rule="opening"]').selectOption('swap2');
    await dialog.locator('[data-setting="mode"]').selectOption('computer-second');
    await dialog.locator('[data-action="start-game"]').click();
    await page.locator('.app[data-current-game="gomoku"]').waitFor();
    assert.match(await statusText(page), /Place the three opening stones: now stone 1 of 3, Black/);
    await square(page, 'h8').click();
    assert.match(await statusText(page), /now stone 2 of 3, White/);
    await square(page, 'i9').click();
    assert.match(await statusText(page), /now stone 3 of 3, Black/);
    await page.screenshot({ path: '/tmp/qi-swap2.png' });
    await square(page, 'j10').click();
    // The computer's part: it chooses a colour or puts two more; the player is told to wait.
    assert.match(await statusText(page), /computer|to move|Choose your colour/);
  }));

test('offline, the online page speaks to players, not developers', { timeout: TEST_TIMEOUT }, async () => {
  const app = await openApp(setup.browser, setup.server.url, { viewport: PHONE });
  try {
    await app.page.goto(`${setup.server.url}online/`);
    const card = app.page.locator('[data-testid="needs-server"]');
    await card.waitFor();
    const words = await card.innerText();
    assert.match(words, /Online play is not available: the game server cannot be reached/);
    assert.doesNotMatch(words, /scripts\/|Qi server|cargo/);
  } finally {
    await app.close();
  }
});

test('served by the Qi server with no game being played, the watch corner takes no room and no Tab stop; offline it never shows', { timeout: TEST_TIMEOUT }, async () => {
  const qi = await startQiServer({ tag: 'first-screen', pages: ['index.html', 'tv/index.html'] });
  try {
    for (const viewport of [DESKTOP, PHONE]) {
      await withApp({ viewport }, async (page) => {
        const corner = page.locator('[data-testid="watch-corner"]');
        // Asked for a moment after the page, kept out of sight: the lobby has no game.
        await corner.waitFor({ state: 'attached', timeout: 10_000 });
        await page.waitForFunction(() => document.querySelector('iframe.watch-corner')?.contentDocument?.querySelector('[data-heard="true"]'));
        await page.waitForTimeout(300);
        assert.equal(await corner.getAttribute('data-live'), 'false');
        assert.equal(await corner.isVisible(), false);
        const box = await corner.boundingBox();
        assert.ok(box.height <= 1, `the hidden frame takes room: ${JSON.stringify(box)}`);
        // The move list comes straight after the game's panels, on the first screen at 1280.
        if (viewport === DESKTOP) {
          const list = await page.locator('.move-list').boundingBox();
          assert.ok(list.y < viewport.height, `the move list starts at ${list.y}`);
        }
        // Tab never stops on the hidden frame.
        for (let i = 0; i < 60; i += 1) {
          await page.keyboard.press('Tab');
          assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), 'IFRAME');
        }
        await page.screenshot({ path: `/tmp/qi-watch-none-${viewport.width}.png` });
      }, qi.base);
    }
    // Offline: the frame would hold the browser's error page; it stays out of sight.
    const app = await openApp(setup.browser, qi.base, { viewport: DESKTOP });
    try {
      // The app's later wasm part (the watch corner's code among it) is fetched after the board
      // is drawn and the page is idle: offline before it arrives, the corner could never come.
      await app.page.waitForFunction(() => performance.getEntriesByType('resource')
        .some((entry) => entry.name.includes('_later.wasm') && entry.responseEnd > 0), null, { timeout: 20_000 });
      await app.context.setOffline(true);
      const corner = app.page.locator('[data-testid="watch-corner"]');
      await corner.waitFor({ state: 'attached', timeout: 10_000 });
      await app.page.waitForTimeout(2_000);
      assert.equal(await corner.getAttribute('data-live'), 'false');
      assert.equal(await corner.isVisible(), false);
      await app.page.screenshot({ path: '/tmp/qi-watch-offline.png' });
    } finally {
      await app.close();
    }
  } finally {
    await qi.stop();
  }
});
