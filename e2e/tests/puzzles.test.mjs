// End-to-end tests of the puzzle page (puzzles/) in headless Chromium against the built app:
// a puzzle of the database solved and one failed, Streak ended by a mistake, a puzzle's link
// opened in a fresh browser, a puzzle solved inside an embed on another origin, and puzzles
// made from a game the player lost.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { REPO, WAIT_MS, drag, presetGame, seriousAxeViolations, sharedSetup, startBlog, startQiServer } from '../support.mjs';

const TEST_TIMEOUT = 180_000;
const setup = sharedSetup({ before, after });

/** The chess database as the page fetches it: id → moves. */
const CHESS = new Map(
  readFileSync(path.join(REPO, 'static/puzzles/chess.csv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((row) => row.split(','))
    .map(([id, fen, moves, rating]) => [id, { fen, moves: moves.split(' '), rating: Number(rating) }]),
);

/** A chess puzzle of the database whose moves promote nothing (a drag plays each). */
const PLAIN = [...CHESS].find(([, p]) => p.moves.length === 4 && p.moves.every((m) => m.length === 4));

/** Lichess's first puzzle (CC0): mate in two, carried whole by its link. */
const LICHESS_ROW = '00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2 middlegame short,,';

const status = (page) => page.locator('[data-testid="puzzle-status"]');

/** Waits for the puzzle status's state. */
async function waitForState(page, state) {
  await page.locator(`[data-testid="puzzle-status"][data-state="${state}"]`).waitFor({ timeout: WAIT_MS });
}

/** The id of the puzzle on the board. */
async function puzzleId(page) {
  return page.locator('[data-testid="puzzle-id"]').getAttribute('data-id');
}

/** Plays the solver's moves of `moves` (the opponent's first is on the board), waiting for each reply. */
async function solve(page, moves) {
  for (let i = 1; i < moves.length; i += 2) {
    const move = moves[i];
    await drag(page, move.slice(0, 2), move.slice(2, 4));
    const reply = moves[i + 1];
    // The reply comes half a second after the right move: the board takes moves again then.
    if (reply) await page.locator(`[data-square="${reply.slice(2, 4)}"] .piece`).waitFor();
    if (reply) await page.waitForTimeout(700);
  }
}

/** A legal-looking wrong first move for the chess puzzle on the board: any piece of the solver that the page lets move, not the solution's. */
async function blunder(page, solution) {
  // Ask the page's own rules through the board: pick a solver's piece and one of its highlighted destinations.
  const pieces = await page.locator('.board [data-square] .piece').evaluateAll((nodes) =>
    nodes.map((n) => ({ square: n.closest('[data-square]').dataset.square, code: n.dataset.piece })),
  );
  const solverColour = (await page.locator('[data-testid="puzzle-status"]').innerText()).includes('White') ? 'w' : 'b';
  for (const { square, code } of pieces.filter((p) => p.code.startsWith(solverColour))) {
    await page.locator(`[data-square="${square}"]`).click();
    const targets = await page.locator('.board [data-square]:has(.hint)').evaluateAll((nodes) => nodes.map((n) => n.dataset.square));
    const wrong = targets.find((to) => `${square}${to}` !== solution);
    if (wrong) {
      await page.locator(`[data-square="${wrong}"]`).click();
      return `${square}${wrong}`;
    }
    await page.keyboard.press('Escape');
  }
  throw new Error('no wrong move found');
}

test('a puzzle of the database is solved: the reply comes, the rating rises, the board is full size', { timeout: TEST_TIMEOUT }, async () => {
  const [id, puzzle] = PLAIN;
  await setup.withApp({ query: `puzzles/?puzzle=chess:${id}` }, async (page) => {
    await waitForState(page, 'solving');
    assert.equal(await puzzleId(page), id);
    const box = await page.locator('.board').boundingBox();
    assert.ok(box.width >= 400, `the board is ${box.width} px wide at 1280 px`);
    assert.match(await status(page).innerText(), /find the best move/i);
    assert.deepEqual(await seriousAxeViolations(page), [], 'the puzzle page (axe)');
    const before = Number(await page.locator('[data-testid="puzzle-rating"]').getAttribute('data-rating'));
    await solve(page, puzzle.moves);
    await waitForState(page, 'solved');
    assert.match(await status(page).innerText(), /solved/i);
    const afterRating = Number(await page.locator('[data-testid="puzzle-rating"]').getAttribute('data-rating'));
    assert.ok(afterRating > before, `rating ${before} → ${afterRating}`);
    assert.match(await page.locator('.rating-change').innerText(), /\+\d+/);
    // Kept in the browser: the dashboard counts it.
    await page.locator('[data-mode="dashboard"]').click();
    await page.locator('[data-testid="dashboard"]').waitFor();
    assert.match(await page.locator('[data-testid="dashboard"]').innerText(), /1 solved, 0 failed/);
    assert.deepEqual(await seriousAxeViolations(page), [], 'the dashboard (axe)');
    // The next puzzle is another one.
    await page.locator('[data-mode="rated"]').click();
    await waitForState(page, 'solving');
    assert.notEqual(await puzzleId(page), id);
  });
});

test('a wrong move fails the puzzle, is answered by the engine, and the solution is shown', { timeout: TEST_TIMEOUT }, async () => {
  const [id, puzzle] = PLAIN;
  await setup.withApp({ query: `puzzles/?puzzle=chess:${id}` }, async (page) => {
    await waitForState(page, 'solving');
    await blunder(page, puzzle.moves[1]);
    await waitForState(page, 'failed');
    assert.match(await status(page).innerText(), /not the move/i);
    // The engine's answer to it, in the game's notation.
    await page.waitForFunction(() => /answered by/.test(document.querySelector('[data-testid="refutation"]')?.innerText ?? ''), null, { timeout: 30_000 });
    await page.locator('[data-action="solution"]').click();
    const last = puzzle.moves.at(-1);
    await page.locator(`[data-square="${last.slice(2, 4)}"] .piece`).waitFor();
    assert.match(await status(page).innerText(), /failed/i);
    assert.equal(await status(page).getAttribute('data-state'), 'failed');
    const change = await page.locator('.rating-change').innerText();
    assert.match(change, /-\d+/, 'the rating fell');
  });
});

test('Streak goes on while puzzles are solved and ends at the first mistake', { timeout: TEST_TIMEOUT }, async () => {
  await setup.withApp({ query: 'puzzles/?game=chess&mode=streak' }, async (page) => {
    await waitForState(page, 'solving');
    const first = await puzzleId(page);
    await solve(page, CHESS.get(first).moves);
    await page.locator('[data-testid="streak"][data-count="1"]').waitFor();
    // The next comes by itself.
    await page.waitForFunction((first) => document.querySelector('[data-testid="puzzle-id"]')?.dataset.id !== first, first);
    await waitForState(page, 'solving');
    const second = await puzzleId(page);
    await blunder(page, CHESS.get(second).moves[1]);
    await page.locator('[data-testid="streak"][data-over="true"]').waitFor();
    assert.match(await page.locator('[data-testid="streak"]').innerText(), /Streak over: 1 solved \(best 1\)/);
    await page.locator('[data-action="restart-streak"]').click();
    await page.locator('[data-testid="streak"][data-count="0"][data-over="false"]').waitFor();
  });
});

test('a puzzle\'s link carries it whole: a fresh browser opens and solves it with no database', { timeout: TEST_TIMEOUT }, async () => {
  let link;
  await setup.withApp({ query: `puzzles/?puzzle=chess:${PLAIN[0]}` }, async (page) => {
    await waitForState(page, 'solving');
    await page.locator('[data-action="share-puzzle"]').click();
    link = await page.locator('[data-testid="share-link"]').inputValue();
  });
  assert.match(link, /\/qi\/puzzles\/\?puzzle=chess:[A-Za-z0-9]+&row=/);
  const context = await setup.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const asked = [];
  page.on('request', (request) => asked.push(request.url()));
  try {
    await page.goto(link);
    await waitForState(page, 'solving');
    assert.equal(await puzzleId(page), PLAIN[0]);
    await solve(page, PLAIN[1].moves);
    await waitForState(page, 'solved');
    assert.ok(!asked.some((url) => url.includes('/data/')), 'the database was fetched for a link that carries the puzzle');
    const box = await page.locator('.board').boundingBox();
    assert.ok(box.width >= 340, `the board is ${box.width} px wide on a phone`);
  } finally {
    await context.close();
  }
  // "Puzzles" beside the games opens the game's puzzles; the app's embed dialog offers the
  // game's daily puzzle for a frame.
  await setup.withApp({ query: '?game=xiangqi' }, async (page) => {
    await page.locator('[data-action="embed"]').click();
    const daily = await page.locator('[data-testid="embed-daily-puzzle"]').inputValue();
    assert.match(daily, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/qi\/puzzles\/\?mode=daily&amp;game=xiangqi&amp;embed=1&amp;lang=en"/);
    await page.keyboard.press('Escape');
    await page.locator('[data-action="puzzles"]').click();
    await page.locator('.puzzles-page[data-current-game="xiangqi"]').waitFor();
    await waitForState(page, 'solving');
  });
  // The app's own address with `?puzzle=` lands on the puzzle page.
  await setup.withApp({ query: `?puzzle=chess:00sHx&row=${encodeURIComponent(LICHESS_ROW)}` }, async (page) => {
    await waitForState(page, 'solving');
    assert.equal(await puzzleId(page), '00sHx');
  });
});

test('a blog on another origin embeds a puzzle and the day\'s puzzle, solved in the frame', { timeout: TEST_TIMEOUT }, async () => {
  const row = encodeURIComponent(LICHESS_ROW);
  const frames = [
    ['this', `${setup.server.url}embed/?puzzle=chess:00sHx&row=${row}&lang=vi`],
    ['daily', `${setup.server.url}puzzles/?mode=daily&game=xiangqi&embed=1`],
  ];
  const html = `<!doctype html><html><head><title>A blog</title></head><body><h1>Puzzles</h1>
${frames.map(([id, src]) => `<iframe id="${id}" src="${src.replaceAll('&', '&amp;')}" width="400" height="520" title="${id}" style="border:0"></iframe>`).join('\n')}
</body></html>`;
  const blog = await startBlog(html);
  const context = await setup.browser.newContext({ viewport: { width: 1000, height: 1200 } });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  try {
    await page.goto(blog.url);
    const frame = page.frameLocator('#this');
    await frame.locator('.puzzle-embed [data-testid="puzzle-status"][data-state="solving"]').waitFor();
    assert.match(await frame.locator('[data-testid="puzzle-status"]').innerText(), /Đến lượt bạn/);
    const board = await frame.locator('.board').boundingBox();
    assert.ok(board.width >= 300, `the framed board is ${board.width} px wide`);
    for (const [from, to] of [['a2', 'e6'], ['f7', 'f8']]) {
      await frame.locator(`[data-square="${from}"]`).click();
      await frame.locator(`[data-square="${to}"]`).click();
      await page.waitForTimeout(800);
    }
    await frame.locator('[data-testid="puzzle-status"][data-state="solved"]').waitFor();
    assert.match(await frame.locator('[data-testid="puzzle-status"]').innerText(), /Đã giải xong/);
    // The day's xiangqi puzzle is there to solve too.
    const daily = page.frameLocator('#daily');
    await daily.locator('.puzzle-embed[data-current-game="xiangqi"] [data-testid="puzzle-status"][data-state="solving"]').waitFor();
    assert.deepEqual(errors, []);
    const framed = page.frames().find((f) => f.url().includes('00sHx'));
    assert.equal(await framed.evaluate(() => localStorage.length), 0, 'the embed stored something');
  } finally {
    await context.close();
    await blog.close();
  }
});

test('a lost game against the computer gives puzzles of the wins the player let go', { timeout: TEST_TIMEOUT }, async () => {
  await setup.withApp({ settings: { mode: 'computer-second', level: '1' } }, async (page) => {
    // White had mate in two after 17...Kd7 (Be6+ Kd8 Qf8#) but played Bb1; then resigned.
    await presetGame(page, {
      game: 'chess',
      start: 'q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17',
      moves: ['e8d7', 'a2b1', 'f3g2'],
      settings: { mode: 'computer-second' },
    });
    await page.locator('[data-action="resign"]').click();
    await page.locator('[data-action="confirm-resign"]').click();
    const link = page.locator('[data-action="overlay-puzzles"]');
    await link.waitFor();
    assert.match(await link.getAttribute('href'), /^puzzles\/\?mine=first&g=/);
    await link.click();
    await page.locator('[data-testid="own-puzzles"][data-state="found-1"]').waitFor({ timeout: 90_000 });
    await waitForState(page, 'solving');
    await solve(page, ['e8d7', 'a2e6', 'd7d8', 'f7f8']);
    await waitForState(page, 'solved');
  });
});

test('on a Qi server, a signed-in player\'s puzzle rating is kept with the account and follows them to another browser', { timeout: TEST_TIMEOUT }, async () => {
  const qi = await startQiServer({ tag: 'puzzles', pages: ['index.html', 'puzzles/index.html'] });
  const [id, puzzle] = PLAIN;
  // Through the browser context's own request API (its cookies, not the page's network, so a
  // refusal asked for here is not the page's error).
  const api = async (page, path, body) => {
    const url = new URL(path, qi.base).href;
    const response = body === undefined ? await page.request.get(url) : await page.request.post(url, { data: body });
    return { status: response.status(), json: await response.json().catch(() => null) };
  };
  try {
    let rating;
    await setup.withApp({}, async (page, app) => {
      // Signed out, the server keeps nothing (`null`): the page rates in the browser alone.
      const signedOut = await api(page, '/api/puzzles');
      assert.deepEqual([signedOut.status, signedOut.json], [200, null]);
      const registered = await api(page, '/api/account/register', { name: 'Puzzler', password: 'a good long password' });
      assert.equal(registered.status, 200, JSON.stringify(registered.json));
      await page.goto(`${qi.base}puzzles/?puzzle=chess:${id}`);
      await page.locator('[data-testid="puzzle-rating"][data-on-server="true"]').waitFor();
      await waitForState(page, 'solving');
      // The line drops as the result is sent: it waits in the browser.
      const offline = (route) => (route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue());
      await page.route('**/api/puzzles', offline);
      await solve(page, puzzle.moves);
      await waitForState(page, 'solved');
      await page.waitForFunction(() => /unsent/.test(localStorage.getItem('qi.puzzles') ?? ''));
      assert.equal((await api(page, '/api/puzzles')).json.find((v) => v.game === 'chess')?.tried ?? 0, 0);
      await page.unroute('**/api/puzzles', offline);
      app.errors.splice(0, app.errors.length, ...app.errors.filter((e) => !/api\/puzzles|ERR_INTERNET_DISCONNECTED/.test(e)));
      // The next visit sends it.
      await page.reload();
      await page.waitForFunction(async () => {
        const views = await (await fetch('/api/puzzles')).json();
        return views?.find((v) => v.game === 'chess').tried === 1;
      });
      // Confirmed, it leaves the queue.
      await page.waitForFunction(() => !/unsent/.test(localStorage.getItem('qi.puzzles') ?? ''));
      const views = (await api(page, '/api/puzzles')).json;
      const chess = views.find((v) => v.game === 'chess');
      assert.equal(chess.solved, 1);
      assert.ok(chess.rating > 1500, `the server rated the solve: ${chess.rating}`);
      rating = Math.round(chess.rating);
      // A bad result is refused with its reason, and so is a puzzle the server does not have
      // (its rating is the server's); the same puzzle again counts once.
      const bad = await api(page, '/api/puzzles', { game: 'shogi', puzzle: 'x', solved: true });
      assert.equal(bad.status, 400);
      assert.match(bad.json.detail, /no puzzles of "shogi"/);
      const madeUp = await api(page, '/api/puzzles', { game: 'chess', puzzle: 'zzzzzzzz', solved: true });
      assert.equal(madeUp.status, 400);
      assert.match(madeUp.json.detail, /no chess puzzle "zzzzzzzz" here/);
      const again = await api(page, '/api/puzzles', { game: 'chess', puzzle: id, solved: false });
      assert.equal(again.json.tried, 1);
      assert.equal(again.json.solved, 1, 'the first result stays');
    }, qi.base);
    // Another browser, signed in as the same player, shows the account's rating.
    await setup.withApp({}, async (page) => {
      const login = await api(page, '/api/account/login', { name: 'Puzzler', password: 'a good long password' });
      assert.equal(login.status, 200);
      await page.goto(`${qi.base}puzzles/?game=chess`);
      await page.locator(`[data-testid="puzzle-rating"][data-on-server="true"][data-rating="${rating}"]`).waitFor();
    }, qi.base);
  } finally {
    await qi.stop();
  }
});
