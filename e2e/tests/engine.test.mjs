// The engine in the app's Web Worker (src/worker.rs, crates/worker): a search the page no
// longer wants stops — in place where the page is cross-origin isolated (the server sends
// COOP/COEP, as qi-server does), by a new worker elsewhere; the engine's table survives
// between the searches of one game and is cleared for another; at level 6 the computer thinks
// on the person's time, and stops when the person moves; a full-strength search and an
// analysis run on several threads: wasm threads sharing one table where the page is
// cross-origin isolated, else split across several workers, each searching a share of the
// moves (and so too when the threaded build fails to start); a worker that fails while the
// computer thinks is replaced, and the computer's move is asked of the new one.
//
// Stops are timed and the times printed (docs/engines.md quotes them); the
// assertions only require the stop to come well before the search would have ended by itself,
// so a busy machine cannot fail them.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { DIST, openApp, presetGame, sharedSetup, square, startServer } from '../support.mjs';

/** Where the screenshots go, to look at. */
const SHOTS = new URL('../../target/e2e-shots/', import.meta.url);

/** A search long enough that only a stop ends it in time: 20 s of analysis. */
const LONG_MS = 20_000;

const setup = sharedSetup({ before, after });
/** A second static server, cross-origin isolated (the worker's threads and in-place stops). */
let isolated;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  isolated = await startServer(DIST, undefined, 0, { isolated: true });
});

after(() => isolated?.close());

/** The record text of the game the app keeps (`qi.game.<game>`), after a preset. */
async function storedRecord(page, game) {
  return page.evaluate((game) => localStorage.getItem(`qi.game.${game}`), game);
}

/**
 * Starts a 20 s analysis of `record` through the page's worker, cancels it after `afterMs`,
 * then asks for a level-1 move: returns the cancelled search's answer (should be `null`), the
 * milliseconds from the cancel to the level-1 move, and the workers started.
 */
async function stopAndAskAgain(page, record, afterMs) {
  return page.evaluate(
    async ({ record, afterMs, longMs }) => {
      const engine = window.__qiEngine;
      const long = engine.ask(`A|1|${longMs}|1|${record}`);
      // The worker has started and is searching.
      await new Promise((resolve) => setTimeout(resolve, afterMs));
      const stoppedAt = performance.now();
      engine.cancel(long.seq);
      const cancelled = await long.answer;
      const quick = engine.ask(`2|1|7|${record}`);
      const reply = await quick.answer;
      return {
        cancelled,
        reply,
        ms: performance.now() - stoppedAt,
        generation: engine.generation(),
        inPlace: engine.stopsInPlace(),
      };
    },
    { record, afterMs, longMs: LONG_MS },
  );
}

for (const [name, server, inPlace] of [
  ['isolated (COOP/COEP)', () => isolated, true],
  ['not isolated (a static host)', () => setup.server, false],
]) {
  test(`a cancelled search stops at once, ${name}`, async () => {
    const app = await openApp(setup.browser, server().url);
    try {
      const { page } = app;
      assert.equal(
        await page.evaluate(() => window.crossOriginIsolated),
        inPlace,
        'the page is isolated exactly when served so',
      );
      await presetGame(page, { game: 'chess', start: 'startpos', moves: ['e2e4', 'c7c5'] });
      const record = await storedRecord(page, 'chess');
      // The first run warms the worker up (it starts on first use); the second is timed.
      await stopAndAskAgain(page, record, 1_500);
      const result = await stopAndAskAgain(page, record, 1_500);
      assert.equal(result.cancelled, null, 'the cancelled search has no answer');
      assert.match(result.reply ?? '', /^2\|[a-h][1-8][a-h][1-8]/, 'the next request is answered');
      assert.equal(result.inPlace, inPlace);
      // In place the worker lives on; otherwise each stop replaced it (two stops: three).
      assert.equal(result.generation, inPlace ? 1 : 3, 'workers started');
      assert.ok(result.ms < LONG_MS / 4, `answered ${Math.round(result.ms)} ms after the stop`);
      console.log(
        `# stop, ${name}: the next move came ${result.ms.toFixed(1)} ms after the cancel ` +
          `(level 1 included), worker ${inPlace ? 'kept' : 'replaced'}`,
      );
      assert.deepEqual(app.errors, [], 'the page reported errors');
    } finally {
      await app.close();
    }
  });
}

for (const [name, server, inPlace] of [
  ['isolated', () => isolated, true],
  ['not isolated', () => setup.server, false],
]) {
  test(`a cancelled search waiting in line is never started, and the rest go on (${name})`, async () => {
    const app = await openApp(setup.browser, server().url);
    try {
      const { page } = app;
      await presetGame(page, { game: 'chess', start: 'startpos', moves: ['e2e4'] });
      const record = await storedRecord(page, 'chess');
      const result = await page.evaluate(
        async ({ record, longMs }) => {
          const engine = window.__qiEngine;
          const started = performance.now();
          const running = engine.ask(`A|1|${longMs}|1|${record}`);
          const waiting = engine.ask(`A|2|${longMs}|1|${record}`);
          const wanted = engine.ask(`3|1|5|${record}`);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          engine.cancel(waiting.seq);
          engine.cancel(running.seq);
          const answers = await Promise.all([running.answer, waiting.answer, wanted.answer]);
          return { answers, ms: performance.now() - started, generation: engine.generation() };
        },
        { record, longMs: LONG_MS },
      );
      const [running, waiting, wanted] = result.answers;
      assert.equal(running, null);
      assert.equal(waiting, null);
      assert.match(wanted ?? '', /^3\|[a-h][1-8][a-h][1-8]/, 'the request behind them is answered');
      // Neither 20 s search ran to its end.
      assert.ok(result.ms < LONG_MS / 2, `answered after ${Math.round(result.ms)} ms`);
      assert.equal(result.generation, inPlace ? 1 : 2, 'workers started');
      assert.deepEqual(app.errors, [], 'the page reported errors');
    } finally {
      await app.close();
    }
  });
}

// Where the page is cross-origin isolated, "Engine threads" above one load the worker built
// with wasm threads, whose helpers search beside it with the same table (Lazy SMP); elsewhere
// the search is split across workers, each searching a share of the root moves.
for (const [name, server, threaded] of [
  ['isolated: wasm threads in one worker', () => isolated, true],
  ['not isolated: split across workers', () => setup.server, false],
]) test(`${name}: a full-strength search and an analysis use two threads, and stop together`, async () => {
  const app = await openApp(setup.browser, server().url);
  try {
    const { page } = app;
    // White mates at once with Qxf7 (the scholar's mate): whichever worker has that move in
    // its share, the merged answer is it.
    await presetGame(page, {
      game: 'chess',
      start: 'startpos',
      moves: ['e2e4', 'e7e5', 'd1h5', 'b8c6', 'f1c4', 'g8f6'],
    });
    const record = await storedRecord(page, 'chess');
    // The options' "Engine threads" set how many workers a split search uses.
    const threads = page.locator('select[data-setting="threads"]');
    assert.match(await threads.locator('option[value="0"]').textContent(), /^Automatic \(\d\)$/);
    await threads.selectOption('2');
    const result = await page.evaluate(
      async ({ record, longMs }) => {
        const engine = window.__qiEngine;
        const analysis = await engine.ask(`A|1|1500|3|${record}`).answer;
        const split = engine.workers();
        const threaded = engine.threaded();
        const think = await engine.ask(`2|6|1|${record}`).answer;
        // A stop reaches every thread (every worker of a split search): the next search is
        // answered at once after it. The long search is of another position, with no mate
        // to end it early (the whole of this one, threads searching it together, ends on
        // the mate in one).
        const quiet = record.replace(/\|[^|]*$/, '|d2d4');
        const long = engine.ask(`A|3|${longMs}|1|${quiet}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const stoppedAt = performance.now();
        engine.cancel(long.seq);
        const cancelled = await long.answer;
        const after = await engine.ask(`A|4|300|1|${record}`).answer;
        const stopMs = performance.now() - stoppedAt;
        return { analysis, split, threaded, helped: engine.helped(), think, cancelled, after, stopMs };
      },
      { record, longMs: LONG_MS },
    );
    await threads.selectOption('1');
    const single = await page.evaluate(async (record) => {
      const alone = await window.__qiEngine.ask(`A|5|300|2|${record}`).answer;
      return { alone, workers: window.__qiEngine.workers() };
    }, record);
    assert.equal(result.split, threaded ? 1 : 2, 'workers searching');
    assert.equal(result.threaded, threaded, 'the worker with wasm threads');
    if (threaded) assert.ok(result.helped > 0, `the helper thread searched ${result.helped} nodes`);
    else assert.equal(result.helped, 0, 'no helper threads');
    // `1|nodes|depth:mate:1:h5f7|depth:cp:…|…`: the nodes searched (over both workers when
    // split), then three lines, three different first moves.
    const [, nodes, ...lines] = result.analysis.split('|');
    assert.ok(Number(nodes) > 0, `the analysis counted its nodes: ${result.analysis}`);
    assert.equal(lines.length, 3, result.analysis);
    assert.match(lines[0], /^\d+:mate:1:h5f7/, result.analysis);
    const firsts = lines.map((line) => line.split(':')[3].split(' ')[0]);
    assert.equal(new Set(firsts).size, 3, result.analysis);
    assert.match(result.think, /^2\|h5f7\|/, 'level 6 plays the mate');
    assert.equal(result.cancelled, null);
    assert.match(result.after, /^4\|\d+\|\d+:mate:1:h5f7/);
    assert.ok(result.stopMs < LONG_MS / 4, `answered ${Math.round(result.stopMs)} ms after the stop`);
    assert.equal(single.workers, 1, 'one worker once the setting says one');
    assert.match(single.alone, /^5\|\d+\|\d+:mate:1:h5f7\|/);
    console.log(`# ${name}: stopped; the next (300 ms) answered ${result.stopMs.toFixed(1)} ms after; helpers searched ${result.helped} nodes`);
    assert.deepEqual(app.errors, [], 'the page reported errors');
  } finally {
    await app.close();
  }
});

test('a threaded build that fails to start gives its request to the build without threads', async () => {
  // A copy of the build whose threaded worker cannot load (its module is missing), served
  // cross-origin isolated: the request asked of it is answered all the same.
  const broken = mkdtempSync(path.join(tmpdir(), 'qi-no-threads-'));
  cpSync(DIST, broken, { recursive: true });
  rmSync(path.join(broken, 'threads', 'qi-worker_bg.wasm'));
  rmSync(path.join(broken, 'threads', 'qi-worker_bg.wasm.br'), { force: true });
  rmSync(path.join(broken, 'threads', 'qi-worker_bg.wasm.gz'), { force: true });
  const server = await startServer(broken, undefined, 0, { isolated: true });
  const app = await openApp(setup.browser, server.url);
  try {
    const { page } = app;
    await presetGame(page, { game: 'chess', start: 'startpos', moves: ['e2e4'] });
    const record = await storedRecord(page, 'chess');
    const result = await page.evaluate(async (record) => {
      const engine = window.__qiEngine;
      engine.setThreads(2);
      const think = await engine.ask(`7|6|1|${record}`).answer;
      return { think, threaded: engine.threaded(), workers: engine.workers() };
    }, record);
    assert.match(result.think ?? '', /^7\|[a-h][1-8][a-h][1-8]/, 'answered');
    assert.equal(result.threaded, false, 'by the build without threads');
    // The missing module is the test's doing; anything else is the app's.
    const others = app.errors.filter((e) => !/qi-worker_bg\.wasm/.test(e));
    assert.deepEqual(others, [], 'the page reported errors');
  } finally {
    await app.close();
    await server.close();
    rmSync(broken, { recursive: true, force: true });
  }
});

test('the engine keeps its table between searches of one game and clears it for another', async () => {
  const app = await openApp(setup.browser, isolated.url);
  try {
    const { page } = app;
    await presetGame(page, { game: 'chess', start: 'startpos', moves: ['e2e4', 'c7c5', 'g1f3'] });
    const record = await storedRecord(page, 'chess');
    const other = record.replace(/\|[^|]*$/, '|d2d4');
    // Level 3 searches to depth 4: the same seed, the same position, the same depth.
    const nodes = await page.evaluate(
      async ({ record, other }) => {
        const think = async (text) => {
          const reply = await window.__qiEngine.ask(`9|3|11|${text}`).answer;
          const [, , depth, nodes] = reply.split('|');
          return { depth: Number(depth), nodes: Number(nodes) };
        };
        await think(other);
        const fresh = await think(record);
        const again = await think(record);
        await think(other);
        const cleared = await think(record);
        return { fresh, again, cleared };
      },
      { record, other },
    );
    assert.equal(nodes.fresh.depth, 4);
    assert.equal(nodes.again.depth, 4);
    assert.ok(nodes.again.nodes < nodes.fresh.nodes, `kept: ${JSON.stringify(nodes)}`);
    assert.deepEqual(nodes.cleared, nodes.fresh, 'cleared by another game');
    assert.deepEqual(app.errors, [], 'the page reported errors');
  } finally {
    await app.close();
  }
});

/**
 * Opens the app against the computer at level 6 with the page's workers kept as they are made
 * (`window.__qiWorkers`), and plays e2e4: the computer is thinking.
 */
async function openWithKeptWorkers() {
  const keepWorkers = () => {
    const Made = window.Worker;
    window.__qiWorkers = [];
    window.Worker = class extends Made {
      constructor(...args) {
        super(...args);
        window.__qiWorkers.push(this);
      }
    };
  };
  const app = await openApp(setup.browser, setup.server.url, {
    settings: { game: 'chess', mode: 'computer-second', level: 6, lang: 'en' },
    initScript: keepWorkers,
  });
  await presetGame(app.page, { game: 'chess', start: 'startpos', moves: ['e2e4'] });
  return app;
}

/**
 * Fails the page's `made`-th worker once it exists: the `error` event is what the page is told
 * when its worker traps (a panic in the engine) or dies.
 */
async function failWorker(page, made) {
  await page.waitForFunction((n) => window.__qiWorkers.length >= n, made);
  await page.evaluate((i) => {
    window.__qiWorkers[i].dispatchEvent(new ErrorEvent('error', { message: 'simulated trap' }));
  }, made - 1);
}

test("a worker that fails while the computer thinks is replaced, and the computer still moves", async () => {
  const app = await openWithKeptWorkers();
  try {
    const { page } = app;
    // The computer is thinking (level 6 takes seconds): its worker fails.
    await failWorker(page, 1);
    await page.locator('.move-list [data-ply]').nth(1).waitFor();
    const made = await page.evaluate(() => window.__qiWorkers.length);
    assert.equal(made, 2, 'a new worker was made, and answered');
    assert.equal(await page.locator('.move-list [data-ply]').count(), 2, 'one move, not two');
    assert.deepEqual(app.errors, [], 'the page reported errors');
  } finally {
    await app.close();
  }
});

test('when the new worker fails too, the player is told and can ask the computer again', async () => {
  const app = await openWithKeptWorkers();
  try {
    const { page } = app;
    // The computer's worker fails, and so does the one the page makes to ask again.
    await failWorker(page, 1);
    await failWorker(page, 2);
    const notice = page.getByTestId('notice');
    await notice.waitFor();
    assert.match(await notice.innerText(), /engine stopped/);
    assert.equal(await page.locator('.move-list [data-ply]').count(), 1, 'no move yet');
    assert.equal(await page.getByTestId('thinking').count(), 0, 'not shown as thinking');
    // Asked again, a third worker answers and the computer moves.
    await page.locator('[data-action="ask-computer-again"]').click();
    await page.locator('.move-list [data-ply]').nth(1).waitFor();
    assert.equal(await page.evaluate(() => window.__qiWorkers.length), 3);
    assert.equal(await notice.count(), 0, 'the notice is gone');
    assert.deepEqual(app.errors, [], 'the page reported errors');
  } finally {
    await app.close();
  }
});

/**
 * Opens the app against the computer at level 6 (the person White, e2e4 played) and waits for
 * the computer's answer and the ponder that follows it.
 */
async function openPondering(url) {
  const app = await openApp(setup.browser, url, {
    settings: { game: 'chess', mode: 'computer-second', level: 6, lang: 'en' },
  });
  await presetGame(app.page, { game: 'chess', start: 'startpos', moves: ['e2e4'] });
  await app.page.locator('.move-list [data-ply]').nth(1).waitFor();
  await app.page.waitForFunction(() => Number(window.__qiEngine.ponders().split('|')[0]) >= 1);
  return app;
}

for (const [name, server] of [
  ['isolated', () => isolated],
  ['not isolated', () => setup.server],
]) {
  test(`level 6 thinks on the person's time and stops when the person moves (${name})`, async () => {
    // The computer answers; then it ponders the reply it expects.
    const app = await openPondering(server().url);
    try {
      const { page } = app;
      const generation = await page.evaluate(() => window.__qiEngine.generation());
      // The person thinks for a second (the ponder goes on, slice after slice: level 6 ponders
      // up to ten times its 3 s), then moves.
      await page.waitForTimeout(1_000);
      const stillPondering = (await page.evaluate(() => window.__qiEngine.ponders())).split('|');
      await page.screenshot({ path: new URL(`pondering-${name.replace(' ', '-')}.png`, SHOTS).pathname });
      assert.equal(stillPondering[1], '0', 'the ponder is still under way when the person moves');
      // The person moves: the ponder ends (its slice done) and the computer answers.
      const from = (await square(page, 'g1').locator('.piece').count()) ? 'g1' : 'b1';
      await square(page, from).click();
      await square(page, from === 'g1' ? 'f3' : 'c3').click();
      await page.locator('.move-list [data-ply]').nth(3).waitFor();
      const [asked, ended, ...last] = (await page.evaluate(() => window.__qiEngine.ponders())).split('|');
      assert.ok(Number(asked) >= 1 && Number(ended) >= 1, `ponders: ${asked} asked, ${ended} ended`);
      const nodes = Number(last[3]);
      assert.ok(nodes > 0, `the ponder searched: ${last.join('|')}`);
      // It went on through the person's second, and ended with the move.
      assert.ok(Number(last[4]) >= 500, `pondered while the person thought: ${last.join('|')}`);
      // A ponder never costs the worker.
      assert.equal(await page.evaluate(() => window.__qiEngine.generation()), generation);
      console.log(`# ponder (${name}): depth ${last[2]}, ${nodes} nodes in ${last[4]} ms`);
      assert.deepEqual(app.errors, [], 'the page reported errors');
    } finally {
      await app.close();
    }
  });
}

test('a hidden page stops pondering', async () => {
  const app = await openPondering(isolated.url);
  try {
    const { page } = app;
    await page.waitForTimeout(300);
    assert.equal((await page.evaluate(() => window.__qiEngine.ponders())).split('|')[1], '0');
    // The tab goes to the background (as the browser says it when another tab is shown).
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    // Level 6 would ponder for up to 30 s: ended long before.
    await page.waitForFunction(() => window.__qiEngine.ponders().split('|')[1] === '1', null, {
      timeout: 10_000,
    });
    assert.deepEqual(app.errors, [], 'the page reported errors');
  } finally {
    await app.close();
  }
});
