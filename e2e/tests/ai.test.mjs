// End-to-end tests of playing the computer in the built app (headless Chromium): full games
// against level 1 in each game with the person's side played from the app's own hints, the page
// staying responsive while level 6 thinks in its Web Worker (no long tasks on the main thread),
// playing on from a past position, and undo against the computer.
// Run: `QI_DIST=<dist dir> node --test e2e/tests/ai.test.mjs` (default QI_DIST = <repo>/dist).
//
// The tests assert behaviour, never particular moves: they hold for any engine behind the
// worker, the placeholder that plays the first legal move at once as well as the real ones —
// except where the test needs to see the computer thinking (level 6 thinks 2.5 s): when the
// answer comes too fast to act while it thinks, those tests fail and say so.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
  click,
  drag,
  moveList,
  pieceAt,
  result,
  sharedSetup,
  statusText,
  waitForPiece,
  waitForPlies,
} from '../support.mjs';

/** A full game may take a while on a slow, shared machine; each wait inside is bounded. */
const GAME_TIMEOUT = 300_000;
const TEST_TIMEOUT = 180_000;
/** The most plies a game against level 1 may take before the test gives up. */
const MAX_PLIES = 400;
/** How long one answer of the computer (a hint at level 5, a move at level 1) may take. */
const ANSWER_MS = 60_000;

const setup = sharedSetup({ before, after });

const { withApp } = setup;

/**
 * Runs in the page before its scripts: records, on the page's own clock (performance.now),
 * when the thinking indicator comes and goes, what the first cell of the board is, the status
 * line, clicks on buttons and changes of selects, and every main-thread long task (a
 * PerformanceObserver, buffered). Read back as `window.__qiE2E`.
 */
function instrument() {
  const rec = {
    thinking: [],
    firstSquare: [],
    status: [],
    plies: [],
    clicks: [],
    changes: [],
    longtasks: [],
    longtaskSupported: false,
  };
  window.__qiE2E = rec;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        rec.longtasks.push({ start: entry.startTime, duration: entry.duration });
      }
    }).observe({ type: 'longtask', buffered: true });
    rec.longtaskSupported = PerformanceObserver.supportedEntryTypes.includes('longtask');
  } catch (error) {
    rec.longtaskError = String(error);
  }
  let thinking = false;
  let first = null;
  let status = null;
  let plies = 0;
  const look = () => {
    const at = performance.now();
    const nowThinking = document.querySelector('[data-testid="thinking"]') !== null;
    if (nowThinking !== thinking) {
      thinking = nowThinking;
      rec.thinking.push({ at, on: thinking });
    }
    const cell = document.querySelector('.board [data-square]')?.dataset.square ?? null;
    if (cell !== first) {
      first = cell;
      rec.firstSquare.push({ at, square: cell });
    }
    const text = document.querySelector('[data-testid="status"]')?.textContent ?? null;
    if (text !== status) {
      status = text;
      rec.status.push({ at, text });
    }
    const count = document.querySelectorAll('.move-list [data-ply]').length;
    if (count !== plies) {
      plies = count;
      rec.plies.push({ at, count });
    }
  };
  new MutationObserver(look).observe(document, {
    childList: true,
    subtree: true,
    characterData: true,
  });
  document.addEventListener(
    'click',
    (event) => {
      const action = event.target.closest?.('[data-action]')?.dataset.action;
      if (action) rec.clicks.push({ at: event.timeStamp, action });
    },
    true,
  );
  document.addEventListener(
    'change',
    (event) => {
      const setting = event.target.dataset?.setting;
      if (setting) rec.changes.push({ at: event.timeStamp, setting, value: event.target.value });
    },
    true,
  );
}

const records = (page) => page.evaluate(() => window.__qiE2E);
const plyCount = (page) => page.locator('.move-list [data-ply]').count();
const thinking = (page) => page.locator('[data-testid="thinking"]');
const hintButton = (page) => page.locator('[data-action="hint"]');

/**
 * Waits until the person may move (the hint button is there and enabled: the person's turn,
 * nothing being computed) or the game is over. Returns `'result'` or `'turn'`.
 */
async function waitForTurnOrResult(page, timeout = ANSWER_MS) {
  const handle = await page.waitForFunction(
    () => {
      if (document.querySelector('[data-testid="status"] [data-result]')) return 'result';
      if (document.querySelector('[data-action="hint"]:not([disabled])')) return 'turn';
      return null;
    },
    null,
    { timeout },
  );
  return handle.jsonValue();
}

/**
 * Asks for a hint and plays it as a person would: the one suggested cell for a gomoku stone or
 * a banqi flip; else the piece, then its destination (the piece is the suggested cell that
 * gets selected and shows the other as a legal destination). A promotion takes the queen.
 * Returns the suggested cells.
 */
async function playHint(page) {
  const before = await plyCount(page);
  await hintButton(page).click();
  const found = await page.waitForFunction(
    () => {
      const cells = [...document.querySelectorAll('.board .cell.suggested')];
      if (cells.length) return cells.map((c) => c.dataset.square);
      // A banqi chain capture may be ended rather than continued: no cell to show.
      const answered = document.querySelector('[data-action="hint"]:not([disabled])');
      if (answered && document.querySelector('[data-action="end-chain"]')) return [];
      return null;
    },
    null,
    { timeout: ANSWER_MS },
  );
  const cells = await found.jsonValue();
  if (cells.length === 0) {
    await page.locator('[data-action="end-chain"]').click();
  } else if (cells.length === 1) {
    await click(page, cells[0]);
  } else {
    assert.equal(cells.length, 2, `a hint shows one or two cells, not ${cells}`);
    // The piece to move stands on its cell; the destination is empty, an opponent's piece or
    // (banqi) a face-down one, which must never be clicked first (that would flip it).
    const codes = await Promise.all(cells.map((c) => pieceAt(page, c)));
    let [from, to] = cells;
    if (codes[0] === null || codes[0] === '?') [from, to] = [cells[1], cells[0]];
    await click(page, from);
    await page.locator(`[data-square="${from}"][aria-selected="true"]`).waitFor();
    if ((await page.locator(`[data-square="${to}"][data-hint]`).count()) === 0) {
      // Both cells hold pieces and the first was the opponent's: pick up the other one.
      [from, to] = [to, from];
      await click(page, from);
      await page.locator(`[data-square="${to}"][data-hint]`).waitFor();
    }
    await click(page, to);
    const promotion = page.locator('.dialog.promotion [data-promotion="q"]');
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('.move-list [data-ply]').length > n ||
        document.querySelector('.dialog.promotion'),
      before,
    );
    if (await promotion.count()) await promotion.click();
  }
  await page.waitForFunction(
    (n) => document.querySelectorAll('.move-list [data-ply]').length > n,
    before,
  );
  return cells;
}

/**
 * Plays the person's side from hints until the game ends, checking that the computer answers
 * every move with one of its own. Returns `{ plies, result, ms }`.
 */
async function playOutWithHints(page) {
  const started = Date.now();
  for (;;) {
    const state = await waitForTurnOrResult(page);
    const plies = await plyCount(page);
    if (state === 'result') return { plies, result: await result(page), ms: Date.now() - started };
    if (plies >= MAX_PLIES) {
      assert.fail(`no result after ${plies} plies (cap ${MAX_PLIES}): ${await statusText(page)}`);
    }
    await playHint(page);
    const state2 = await waitForTurnOrResult(page);
    const after = await plyCount(page);
    if (state2 === 'turn') {
      assert.equal(after, plies + 2, 'the computer answered the move with one move');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Full games against level 1, the person's side played from hints.

const GAMES = [
  ['chess', ['white', 'black', 'draw']],
  ['xiangqi', ['red', 'black', 'draw']],
  ['banqi', ['red', 'black', 'draw']],
  ['gomoku', ['white', 'black', 'draw']],
];

for (const [game, results] of GAMES) {
  test(`${game}: a full game against level 1, playing the hints`, { timeout: GAME_TIMEOUT }, (t) =>
    withApp(
      { settings: { game, mode: 'computer-second', level: 1, lang: 'en' } },
      async (page) => {
        const mode = await page.locator('select[data-setting="mode"]').inputValue();
        assert.equal(mode, 'computer-second');
        assert.equal(await page.locator('select[data-setting="level"]').inputValue(), '1');
        assert.equal(await plyCount(page), 0, 'the person moves first');
        const outcome = await playOutWithHints(page);
        const seconds = (outcome.ms / 1000).toFixed(1);
        t.diagnostic(`${game}: ${outcome.result} after ${outcome.plies} plies in ${seconds} s`);
        assert.ok(results.includes(outcome.result), `result ${outcome.result}`);
        await page.locator('[data-testid="game-over"]').waitFor({ state: 'visible' });
        await page.locator('.board-frame.locked').waitFor();
        assert.equal(await hintButton(page).count(), 0, 'no hint once the game is over');
        assert.equal(await thinking(page).count(), 0, 'the computer is not thinking');
        const info = page.locator('[data-testid="engine-info"]');
        assert.equal(await info.count(), 1, 'the last search is reported');
        for (const key of ['data-nodes', 'data-ms', 'data-nps']) {
          assert.match((await info.getAttribute(key)) ?? '', /^\d+$/, key);
        }
      },
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// 2. The page answers while level 6 thinks.

/**
 * Waits for the thinking indicator after the page asked the computer; fails (never skips) when
 * the answer came before anything could be done while it was shown.
 */
async function waitForThinking(page, plies) {
  const seen = await page.waitForFunction(
    (n) => {
      if (document.querySelector('[data-testid="thinking"]')) return 'thinking';
      if (document.querySelectorAll('.move-list [data-ply]').length > n) return 'answered';
      return null;
    },
    plies,
    { timeout: ANSWER_MS },
  );
  const rec = await records(page);
  const spans = rec.thinking.map((e) => `${e.on ? 'on' : 'off'}@${e.at.toFixed(0)}`).join(' ');
  assert.equal(
    await seen.jsonValue(),
    'thinking',
    `the thinking window was not observable: the computer answered at level 6 before the test ` +
      `could act while it thought (placeholder engine?); indicator changes: ${spans || 'none'}`,
  );
}

/** Fails with the same message when the computer answered before `until` (page clock). */
function assertStillThinking(rec, until, what) {
  const off = rec.thinking.find((e) => !e.on);
  assert.ok(
    !off || off.at > until,
    `the thinking window was not observable: the computer answered at ` +
      `${off?.at.toFixed(0)} ms, before ${what} at ${until.toFixed(0)} ms`,
  );
}

test('the board, flip and language answer while level 6 thinks', { timeout: TEST_TIMEOUT }, (t) =>
  withApp(
    {
      settings: { game: 'chess', mode: 'computer-first', level: 6, lang: 'en' },
      initScript: instrument,
    },
    async (page) => {
      await waitForThinking(page, 0);
      const first = () => page.locator('.board [data-square]').first().getAttribute('data-square');
      const orientation = await first();
      const flipped = orientation === 'a8' ? 'h1' : 'a8';
      assert.ok(['a8', 'h1'].includes(orientation), `first cell ${orientation}`);

      // Flip: a real click; the board must be drawn the other way round within 300 ms.
      const wallStart = Date.now();
      await page.locator('[data-action="flip"]').click();
      await page.waitForFunction(
        (cell) => document.querySelector('.board [data-square]')?.dataset.square === cell,
        flipped,
      );
      const wall = Date.now() - wallStart;
      let rec = await records(page);
      const clicked = rec.clicks.findLast((c) => c.action === 'flip');
      const drawn = rec.firstSquare.findLast((c) => c.square === flipped);
      assert.ok(clicked && drawn, 'the click and the redraw were recorded');
      const latency = drawn.at - clicked.at;
      t.diagnostic(
        `flip: ${latency.toFixed(1)} ms from click to redrawn board (${wall} ms seen from the test)`,
      );
      assert.ok(latency <= 300, `the flipped board took ${latency.toFixed(1)} ms (> 300 ms)`);
      assertStillThinking(rec, drawn.at, 'the flipped board was drawn');
      assert.equal(await pieceAt(page, 'e1'), 'wK');

      // Language: the status speaks Chinese, the thinking line too.
      const english = await statusText(page);
      assert.match(english, /White to move/);
      await page.locator('select[data-setting="language"]').selectOption('zh-CN');
      await page.locator('[data-testid="status"]').filter({ hasText: '轮到' }).waitFor();
      rec = await records(page);
      const changed = rec.changes.findLast((c) => c.setting === 'language');
      const spoken = rec.status.find((s) => s.at >= changed.at && s.text.includes('轮到'));
      assert.ok(spoken, 'the status change was recorded');
      t.diagnostic(`language: ${(spoken.at - changed.at).toFixed(1)} ms from change to status text`);
      assertStillThinking(rec, spoken.at, 'the status changed language');
      assert.notEqual(await statusText(page), english);
      assert.match(await thinking(page).textContent(), /电脑正在思考/);
      assert.equal(await plyCount(page), 0, 'the computer has not moved yet');
      assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');

      // Then the computer moves, and the page keeps what was changed meanwhile.
      await page.waitForFunction(
        () => document.querySelectorAll('.move-list [data-ply]').length === 1,
        null,
        { timeout: ANSWER_MS },
      );
      await thinking(page).waitFor({ state: 'detached' });
      assert.equal(await first(), flipped, 'the board stays flipped');
      assert.match(await statusText(page), /轮到/);
      // The figures are folded away under "details": there, not shown until asked.
      await page.locator('[data-testid="engine-info"]').waitFor({ state: 'attached' });
      assert.equal(await page.locator('[data-testid="engine-info"]').isVisible(), false);
      await page.locator('[data-testid="engine-details"] summary').click();
      await page.locator('[data-testid="engine-info"]').waitFor();
    },
  ));

// ---------------------------------------------------------------------------------------------
// 3. No long task on the main thread while the computer thinks.

test('no main-thread long task while level 6 thinks', { timeout: TEST_TIMEOUT }, (t) =>
  withApp(
    {
      settings: { game: 'chess', mode: 'hotseat', level: 6, lang: 'en' },
      initScript: instrument,
    },
    async (page) => {
      let rec = await records(page);
      assert.ok(
        rec.longtaskSupported,
        'this Chromium does not report long tasks ' +
          `(${rec.longtaskError ?? 'no "longtask" entry type'})`,
      );
      // The page has loaded; now start a game with the computer moving first.
      await page.locator('select[data-setting="mode"]').selectOption('computer-first');
      await page.locator('select[data-setting="level"]').waitFor();
      assert.equal(await page.locator('select[data-setting="level"]').inputValue(), '6');
      await page.waitForFunction(
        () => document.querySelectorAll('.move-list [data-ply]').length === 1,
        null,
        { timeout: ANSWER_MS },
      );
      await thinking(page).waitFor({ state: 'detached' });
      // Long tasks are reported after they end; wait for two frames so the last is in.
      await page.evaluate(
        () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
      );
      rec = await records(page);
      const on = rec.thinking.find((e) => e.on);
      assert.ok(on, 'the thinking indicator was shown');
      const off = rec.thinking.find((e) => !e.on && e.at >= on.at);
      assert.ok(off, 'the thinking indicator went away');
      const moved = rec.plies.find((p) => p.count === 1 && p.at >= on.at);
      const end = Math.max(off.at, moved?.at ?? off.at);
      const show = (l) => `${l.duration.toFixed(0)} ms @${l.start.toFixed(0)}`;
      const all = rec.longtasks.map(show);
      const changed = rec.changes.findLast((c) => c.setting === 'mode');
      // The task that put the indicator up (the mode change: the new game drawn, the worker
      // started, the request posted) was already running when the window opened: it is
      // reported, not counted — unless it ran on until the move came, which would mean the
      // search itself ran on the main thread.
      const starter = rec.longtasks.find((l) => l.start <= on.at && l.start + l.duration >= on.at);
      // Likewise the task that closed the window: the page taking the computer's answer (the
      // move played, saved and drawn). The indicator's removal and the new ply are recorded by
      // a mutation observer, at the end of that task's script, so the task is still running at
      // the window's end. It is the page's work after the search, not during it (and a search
      // on the main thread would show as the starter covering the window, or as tasks inside).
      const finisher = rec.longtasks.find(
        (l) => l !== starter && l.start > on.at && l.start <= end && l.start + l.duration >= end,
      );
      const overlapping = rec.longtasks.filter(
        (l) => l !== starter && l !== finisher && l.start < end && l.start + l.duration > on.at,
      );
      const window = `${on.at.toFixed(0)}-${end.toFixed(0)} ms (${(end - on.at).toFixed(0)} ms)`;
      t.diagnostic(
        `mode changed @${changed?.at.toFixed(0)}, thinking ${window}; long tasks in the page: ` +
          `${rec.longtasks.length} [${all.join(', ')}]` +
          (starter ? `; the task that showed the indicator: ${show(starter)}` : '') +
          (finisher ? `; the task that took the answer: ${show(finisher)}` : ''),
      );
      if (starter) {
        assert.ok(
          starter.start + starter.duration < end,
          `one long task (${show(starter)}) covers the whole thinking window ${window}: ` +
            'the search ran on the main thread',
        );
      }
      assert.deepEqual(
        overlapping.map(show),
        [],
        `${overlapping.length} long task(s) overlap the thinking window ${window}; ` +
          `all long tasks (${rec.longtasks.length}): ${all.join(', ')}`,
      );
    },
  ));

// ---------------------------------------------------------------------------------------------
// 4. Play on from a past position of a finished game.

test('play from here in a finished game: the game goes on', { timeout: TEST_TIMEOUT }, () =>
  withApp(
    {
      settings: { mode: 'computer-second', level: 1, lang: 'en' },
      // Fool's mate: the computer (Black) has won.
      preset: { game: 'chess', start: 'startpos', moves: ['f2f3', 'e7e5', 'g2g4', 'd8h4'] },
    },
    async (page) => {
      await page.locator('[data-testid="status"] [data-result="black"]').waitFor();
      await page.locator('[data-testid="game-over"]').waitFor({ state: 'visible' });
      assert.equal(await page.locator('[data-action="play-from-here"]').count(), 0);

      // Step back three moves with the move list: after 1. f3, Black (the computer) to move.
      const back = page.locator('.move-list .steps button[aria-label="Previous move"]');
      for (let i = 0; i < 3; i += 1) await back.click();
      await page.locator('.move-list [data-ply="1"].current').waitFor();
      assert.equal(await pieceAt(page, 'd8'), 'bQ', 'the board shows the past position');
      assert.equal(await pieceAt(page, 'g2'), 'wP');
      assert.equal(await plyCount(page), 4, 'stepping back keeps the moves');
      assert.equal(await thinking(page).count(), 0, 'the computer does not move while viewing');

      await page.locator('[data-action="play-from-here"]').click();
      await page.locator('[data-action="play-from-here"]').waitFor({ state: 'detached' });
      // The later moves are gone, the result with them; the computer answers.
      await page.waitForFunction(
        () => !document.querySelector('[data-testid="status"] [data-result]'),
      );
      assert.equal(await page.locator('[data-testid="game-over"]').count(), 0, 'no overlay');
      assert.equal(await waitForTurnOrResult(page), 'turn', 'the game goes on');
      assert.equal(await plyCount(page), 2, 'the computer answered 1. f3');
      assert.equal(await result(page), null);
      assert.match(await statusText(page), /White to move/);
      assert.equal(await pieceAt(page, 'g2'), 'wP');

      // And the person plays on: a move, and the computer's answer.
      await playHint(page);
      const state = await waitForTurnOrResult(page);
      assert.ok(state === 'result' || (await plyCount(page)) === 4, 'the computer answered again');
    },
  ));

// ---------------------------------------------------------------------------------------------
// 5. Undo against the computer.

const vsLevel1 = { settings: { game: 'chess', mode: 'computer-second', level: 1, lang: 'en' } };

test('undo against the computer takes back both plies', { timeout: TEST_TIMEOUT }, () =>
  withApp(vsLevel1, async (page) => {
    await drag(page, 'e2', 'e4');
    await waitForPiece(page, 'e4', 'wP');
    assert.equal(await waitForTurnOrResult(page), 'turn');
    assert.equal(await plyCount(page), 2, 'the computer answered');
    const answer = (await moveList(page))[1];

    await page.locator('[data-action="undo"]').click();
    await waitForPlies(page, 0);
    assert.equal(await pieceAt(page, 'e2'), 'wP');
    assert.equal(await pieceAt(page, 'e4'), null);
    assert.match(await statusText(page), /White to move/);
    assert.equal(await page.locator('[data-action="undo"]').isDisabled(), true);
    assert.equal(await waitForTurnOrResult(page), 'turn', 'the person is to move');
    assert.equal(await thinking(page).count(), 0, 'the computer does not play again');
    assert.equal(await plyCount(page), 0);
    assert.equal(await page.locator('.board-frame.locked').count(), 0, 'the board takes moves');

    // The person can play again, and the computer answers again.
    await click(page, 'd2');
    await click(page, 'd4');
    await waitForPiece(page, 'd4', 'wP');
    assert.equal(await waitForTurnOrResult(page), 'turn');
    assert.equal(await plyCount(page), 2, `the computer answered (it answered ${answer} before)`);
  }));

test('undo while the computer thinks cancels its answer', { timeout: TEST_TIMEOUT }, (t) =>
  withApp(
    {
      settings: { game: 'chess', mode: 'computer-second', level: 6, lang: 'en' },
      initScript: instrument,
    },
    async (page) => {
      await click(page, 'e2');
      await click(page, 'e4');
      await waitForPiece(page, 'e4', 'wP');
      await waitForThinking(page, 1);
      await page.locator('[data-action="undo"]').click();
      await waitForPlies(page, 0);
      await thinking(page).waitFor({ state: 'detached' });
      const rec = await records(page);
      const undone = rec.clicks.findLast((c) => c.action === 'undo');
      // The indicator went away with the undo, not with an answer.
      assertStillThinking(rec, undone.at, 'the undo click');
      const off = rec.thinking.find((e) => !e.on && e.at >= undone.at);
      assert.ok(
        off.at - undone.at <= 500,
        `the thinking indicator stayed ${(off.at - undone.at).toFixed(0)} ms after the undo`,
      );
      assert.ok(!rec.plies.some((p) => p.count === 2), 'the computer never moved');
      assert.equal(await pieceAt(page, 'e2'), 'wP');
      assert.equal(await pieceAt(page, 'e4'), null);
      assert.match(await statusText(page), /White to move/);

      // The worker answers in order: once a hint asked now has come back, the cancelled search
      // has answered too — and its move must not have been played.
      const asked = Date.now();
      await hintButton(page).click();
      const seen = await page.waitForFunction(
        () => {
          if (document.querySelectorAll('.move-list [data-ply]').length) return 'a move was played';
          if (document.querySelector('[data-testid="notice"]')) return 'a move was refused';
          if (document.querySelector('.board .cell.suggested')) return 'hint';
          return null;
        },
        null,
        { timeout: ANSWER_MS },
      );
      assert.equal(
        await seen.jsonValue(),
        'hint',
        'the cancelled answer is dropped: what comes back next is the hint',
      );
      t.diagnostic(`the hint asked after the undo came back in ${Date.now() - asked} ms`);
      assert.equal(await plyCount(page), 0, 'the cancelled answer was not played');
      assert.equal(await page.locator('[data-testid="notice"]').count(), 0, 'nor tried');
      assert.equal(await pieceAt(page, 'e2'), 'wP');
      assert.equal(await thinking(page).count(), 0);
      assert.match(await statusText(page), /White to move/);
      assert.equal(await result(page), null);
    },
  ),
);

// ---------------------------------------------------------------------------------------------
// 6. Premove: a move made while the computer thinks is queued, shown, and played on its reply.

test('a move made while the computer thinks is played on its reply; Esc drops one', { timeout: TEST_TIMEOUT }, () =>
  withApp(
    {
      settings: { game: 'chess', mode: 'computer-second', level: 6, lang: 'en' },
      initScript: instrument,
    },
    async (page) => {
      await click(page, 'e2');
      await click(page, 'e4');
      await waitForPiece(page, 'e4', 'wP');
      await waitForThinking(page, 1);
      await click(page, 'g1');
      await click(page, 'f3');
      const queued = page.locator('.board .cell[data-premove]');
      const cells = await queued.evaluateAll((els) => els.map((e) => e.dataset.square).sort());
      assertStillThinking(await records(page), await page.evaluate(() => performance.now()), 'the premove');
      assert.deepEqual(cells, ['f3', 'g1'], 'the queued move is shown on the board');
      assert.equal(await pieceAt(page, 'f3'), null, 'and not played yet');
      // The computer's reply, then the knight at once (the computer thinks again).
      await waitForPiece(page, 'f3', 'wN');
      assert.equal(await queued.count(), 0);
      assert.ok((await plyCount(page)) >= 3);
      assert.equal((await moveList(page))[2], 'Nf3');

      // Queued again, then Esc: the reply comes and nothing of the person's is played.
      await waitForThinking(page, 3);
      await click(page, 'f1');
      await click(page, 'c4');
      assert.equal(await queued.count(), 2);
      await page.keyboard.press('Escape');
      assert.equal(await queued.count(), 0, 'Esc drops the queued move');
      assert.equal(await waitForTurnOrResult(page), 'turn');
      assert.equal(await plyCount(page), 4, 'the computer answered; the dropped move was not played');
      assert.equal(await pieceAt(page, 'c4'), null);
    },
  ),
);
