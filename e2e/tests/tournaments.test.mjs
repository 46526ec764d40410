// End-to-end test of a tournament (issue 50): the Qi server (QI_SERVER_BIN) serves the built
// online page (QI_DIST). Three people in their own browsers,
// one in each of the page's languages, register; one creates a Swiss from the lobby's form,
// the two others find it in the lobby's list and join; the driver starts it and pairs it,
// each page takes its player to their game, the games are played on the board, the players
// come back to the tournament, and the standings the page shows, the short link and the
// standings framed on another site agree. Fails (never skips) when the server or a page is
// missing.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { WAIT_MS, click, sharedSetup, startBlog, waitForPiece } from '../support.mjs';

const TEST_TIMEOUT = 300_000;

const setup = sharedSetup({ before, after }, {
  server: 'qi',
  qi: {
    tag: 'tournaments',
    pages: ['index.html', 'online/index.html', 'tv/index.html'],
    readyPath: 'online/',
  },
});

/** A person in a fresh browser context, on the lobby, in language `lang`, registered as `name`. */
async function person(name, lang) {
  const context = await setup.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A read the server turned down while the page polls is not a page error.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) {
      errors.push(`console.error: ${message.text()}`);
    }
  });
  await page.goto(`${setup.base}online/`);
  await page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
  await page.locator('[data-testid="account"] [data-testid="account-name"]').fill(name);
  await page.locator('[data-testid="account-password"]').fill('correct horse battery');
  await page.locator('[data-action="register"]').click();
  await page.locator(`[data-testid="signed-in"][data-name="${name}"]`).waitFor();
  await page.locator('[data-testid="language"]').selectOption(lang);
  await page.waitForFunction((lang) => document.querySelector('.app')?.getAttribute('lang') === lang, lang);
  return { context, page, errors, name, lang };
}

/** The standings the page shows: `[{ name, points, rank }]`, best first. */
async function standings(page) {
  return page.locator('[data-testid="standing"]').evaluateAll((rows) =>
    rows.map((row) => ({
      name: row.dataset.name,
      points: Number(row.dataset.points),
      rank: Number(row.dataset.rank),
    })),
  );
}

/** Plays the game both pages show to its end: five in a row for the first seat. */
async function playGame(first, second) {
  const black = ['h8', 'i8', 'j8', 'k8', 'l8'];
  const white = ['h9', 'i9', 'j9', 'k9'];
  for (let i = 0; i < black.length; i += 1) {
    await click(first.page, black[i]);
    for (const { page } of [first, second]) await waitForPiece(page, black[i], 'b');
    if (i < white.length) {
      await click(second.page, white[i]);
      for (const { page } of [first, second]) await waitForPiece(page, white[i], 'w');
    }
  }
  for (const { page } of [first, second]) {
    await page.locator('[data-testid="status"] [data-result="black"]').waitFor();
  }
}

/** Waits until some of `people` sit at a game (their page took them there), and returns the
 * two players of the first such game, first seat first; the others stay. */
async function nextGame(people) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    for (const someone of people) {
      const board = someone.page.locator('main.play[data-current-game="gomoku"]');
      if (await board.count()) {
        const id = await board.getAttribute('data-game-id');
        const players = [];
        for (const other of people) {
          const theirs = other.page.locator(`main.play[data-game-id="${id}"]`);
          if (await theirs.count()) players.push(other);
        }
        if (players.length === 2) {
          // Seated: each page knows its own seat; the first seat's name shows first.
          const firstName = await someone.page.locator('[data-testid="name-first"]').innerText();
          const first = players.find((p) => firstName.includes(p.name));
          const second = players.find((p) => p !== first);
          assert.ok(first && second, `seats of ${id}: ${firstName}`);
          await first.page.locator('[data-testid="status"]').waitFor();
          return { id, first, second };
        }
      }
    }
    assert.ok(Date.now() < deadline, 'no pairing came to the players\' pages');
    await people[0].page.waitForTimeout(500);
  }
}

test('a Swiss: created from the lobby, joined from two more browsers in three languages, played to the end; the standings, the short link and the embed agree', { timeout: TEST_TIMEOUT }, async () => {
  const suffix = Math.random().toString(36).slice(2, 7);
  const ann = await person(`Ta${suffix}`, 'en');
  const bao = await person(`Tb${suffix}`, 'vi');
  const chen = await person(`Tc${suffix}`, 'zh-CN');
  const people = [ann, bao, chen];
  let blog;
  try {
    // Ann creates it: gomoku, a Swiss of 3 rounds, starting in a minute.
    await ann.page.locator('[data-action="create-tournament-open"]').click();
    await ann.page.locator('[data-testid="tournament-name-input"]').fill(`Evening ${suffix}`);
    await ann.page.locator('[data-testid="tournament-game"]').selectOption('gomoku');
    await ann.page.locator('[data-testid="tournament-length"]').fill('3');
    await ann.page.locator('[data-testid="tournament-starts-in"]').fill('1');
    await ann.page.locator('[data-testid="tournament-minutes"]').fill('5');
    await ann.page.locator('[data-testid="tournament-increment"]').fill('0');
    await ann.page.locator('[data-action="create-tournament"][type="submit"]').click();
    await ann.page.waitForURL(/\?tournament=/);
    const id = new URL(ann.page.url()).searchParams.get('tournament');
    await ann.page.locator('[data-testid="tournament"][data-state="shown"]').waitFor();
    assert.equal(await ann.page.locator('[data-testid="tournament-name"]').innerText(), `Evening ${suffix}`);
    await ann.page.locator('[data-action="join-tournament"]').click();
    await ann.page.locator('[data-testid="tournament"][data-joined="true"]').waitFor();

    // Bảo and Chen find it in the lobby's list, open it, join.
    for (const someone of [bao, chen]) {
      const row = someone.page.locator(`[data-testid="tournaments-upcoming"] [data-testid="tournament-row"][data-id="${id}"]`);
      await row.waitFor({ timeout: 30_000 });
      await row.locator('[data-action="open-tournament"]').click();
      await someone.page.locator('[data-testid="tournament"][data-state="shown"]').waitFor();
      await someone.page.locator('[data-action="join-tournament"]').click();
      await someone.page.locator('[data-testid="tournament"][data-joined="true"]').waitFor();
    }
    // Each page in its own language.
    await bao.page.locator('[data-testid="tournament-stage"]', { hasText: 'Chưa bắt đầu' }).waitFor();
    await chen.page.locator('[data-testid="tournament-stage"]', { hasText: '未开始' }).waitFor();
    await ann.page.locator('[data-testid="players"][data-count="3"]').waitFor();
    assert.match(await bao.page.locator('h3').first().innerText(), /Bảng xếp hạng/);
    assert.match(await chen.page.locator('h3').first().innerText(), /排名/);
    await bao.page.screenshot({ path: '/tmp/qi-tournament-vi.png', fullPage: true });

    // The short link goes to the page.
    const short = await ann.page.locator('input[data-testid="tournament-link"]').inputValue();
    assert.equal(short, `${new URL(setup.base).origin}/t/${id}`);
    const visitor = await setup.browser.newContext();
    const seen = await visitor.newPage();
    await seen.goto(short);
    await seen.locator('[data-testid="tournament-name"]', { hasText: `Evening ${suffix}` }).waitFor();
    await visitor.close();

    // Two rounds (three players: no more than they can play without meeting twice), one game
    // and one bye each; every page takes its player to the game when it is paired.
    const played = [];
    for (let round = 1; round <= 2; round += 1) {
      const { id: game, first, second } = await nextGame(people);
      assert.ok(!played.includes(game), 'a new game each round');
      played.push(game);
      await playGame(first, second);
      for (const { page } of [first, second]) {
        await page.locator('[data-action="back-to-tournament"]').click();
        await page.locator('[data-testid="tournament"][data-state="shown"]').waitFor();
      }
    }

    // Over: every page shows the same standings, the winners' points counted.
    for (const { page } of people) {
      await page.locator('[data-testid="tournament-stage"][data-stage="finished"]').waitFor({ timeout: 60_000 });
    }
    const table = await standings(ann.page);
    assert.equal(table.length, 3);
    assert.equal(table.reduce((sum, row) => sum + row.points, 0), 2 * 2 + 2 * 2, `two wins and two byes: ${JSON.stringify(table)}`);
    for (const someone of [bao, chen]) assert.deepEqual(await standings(someone.page), table);
    assert.equal(await ann.page.locator('[data-testid="tournament-finished"] [data-testid="tournament-game"][data-result="1-0"]').count(), 2);
    await ann.page.screenshot({ path: '/tmp/qi-tournament-en.png', fullPage: true });
    await chen.page.screenshot({ path: '/tmp/qi-tournament-zh.png', fullPage: true });

    // The embed code, pasted on a blog of another origin: the same standings in the frame.
    const code = await ann.page.locator('input[data-testid="tournament-embed"]').inputValue();
    assert.match(code, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/tv\/\?tournament=[\w-]+"/);
    blog = await startBlog(`<!doctype html><html><body><h1>My club</h1>${code}</body></html>`);
    const reader = await setup.browser.newContext({ viewport: { width: 900, height: 800 } });
    const post = await reader.newPage();
    await post.goto(blog.url);
    const frame = post.frameLocator('iframe');
    await frame.locator('[data-testid="tournament"][data-framed="true"]').waitFor();
    const framed = await frame.locator('[data-testid="standing"]').evaluateAll((rows) =>
      rows.map((row) => ({ name: row.dataset.name, points: Number(row.dataset.points), rank: Number(row.dataset.rank) })),
    );
    assert.deepEqual(framed, table, 'the embed shows the standings the page shows');
    const box = await post.locator('iframe').boundingBox();
    assert.ok(box.width >= 400 && box.height >= 500, `the frame is ${box.width}x${box.height}`);
    await post.screenshot({ path: '/tmp/qi-tournament-embed.png' });
    await reader.close();

    // The games as one record, and the results as a TRF.
    const record = await (await fetch(`${setup.base}api/tournaments/${id}/games`)).text();
    assert.equal((record.match(/\[Event "Evening /g) ?? []).length, 2, record);
    const trf = await (await fetch(`${setup.base}api/tournaments/${id}/trf`)).text();
    assert.equal(trf.split('\n').filter((line) => line.startsWith('001 ')).length, 3, trf);

    for (const someone of people) assert.deepEqual(someone.errors, [], `${someone.name}'s page`);
  } finally {
    await blog?.close();
    for (const someone of people) await someone.context.close();
  }
});
