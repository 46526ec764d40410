#!/usr/bin/env node
// The computer's search speed in the browser (wasm in the app's Web Worker) against the same
// search run natively by the `qi` command line, for each game.
//
//   QI_DIST=<dist dir> QI_BIN=<qi binary> [QI_BENCH_RUNS=5] node e2e/bench/bench-ai.mjs
//
// (defaults: <repo>/dist, built with `. scripts/lib.sh && build_app`, and
// <repo>/target/release/qi, built with `cargo build --release -p qi-cli`.)
//
// Each run searches the same position at level 6 twice, one right after the other: in the
// page's worker (through the page's test hook, `window.__qiEngine`: the request the page sends
// for the computer's move) and in `qi think <game> startpos [moves] --level 6`, which goes
// first alternating from run to run. This machine is shared and its speed swings by a factor
// of two from minute to minute; two searches a second apart see much the same machine, so the
// figure is the median of the runs' ratios, not a ratio of best runs. (Searching both at the
// same moment, one on each core, was tried: the ratios swung more, 0.5 to 1.3, the two
// sides not slowing alike.)
//
// The page's first search (level 6, its code not yet compiled) is reported on its own, beside
// a native search of the same position: the cold figure, what a game's first computer move
// gets. It also warms the worker. Before each run the worker is asked a level-1 search, which
// gives it a fresh engine (another level never inherits a table), so every level-6 search
// starts empty, as the native one does. Banqi searches deal 0 on both sides; gomoku is
// searched after a stone in the centre, since the engine answers the empty board without a
// search. A run whose native search counted no nodes is reported and left out of the median.
//
// Beside the wall-clock ratio it reports one per CPU second: each side's nodes over the CPU time
// its search thread used (the worker's thread read from /proc before and after, the native
// process's from the shell's `times`; Linux only), and what share of its wall time each search
// had a core. On a shared machine the wall clock also counts the time another process held the
// core; the CPU time counts only the engine's own work.
//
// It reports; it does not assert (exit 0 unless the benchmark itself cannot run).

import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { DIST, REPO, launchBrowser, openApp, startServer } from '../support.mjs';

/**
 * The games and the moves played before the search. Gomoku is searched after one stone in the
 * centre: on the empty board the engine plays the centre without searching (no nodes).
 */
const GAMES = [
  ['chess', []],
  ['xiangqi', []],
  ['banqi', []],
  ['gomoku', ['h8']],
];
const RUNS = Math.max(1, Number(process.env.QI_BENCH_RUNS) || 5);
const LEVEL = 6;
const GOAL = 0.8;
/** Generous: the worker starts on first use, and the machine is shared. */
const ANSWER_MS = 120_000;
const QI_BIN = path.resolve(process.env.QI_BIN || path.join(REPO, 'target/release/qi'));

function fail(message) {
  console.error(`bench-ai: ${message}`);
  process.exit(1);
}

/** The page's request text for a think: `id|level|seed|record` (deal 0 for banqi). */
const request = (id, level, game, moves) => `${id}|${level}|0|${game}||startpos:0|${moves.join(' ')}`;

let nextId = 1;

/** Clock ticks a second in /proc's CPU times (`getconf CLK_TCK`; 100 on Linux). */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();

/**
 * The CPU time, in ms, that Chromium's dedicated-worker threads have used so far (user and
 * system, from /proc: Linux only; `null` elsewhere). The page under test runs one worker, the
 * engine's, so the difference across a search is what that search had of a core, whatever the
 * rest of the machine did meanwhile.
 */
function workerCpuMs() {
  if (!existsSync('/proc/self/task')) return null;
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let tasks;
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() !== 'DedicatedWorker') continue;
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  }
  return (ticks * 1000) / TICKS;
}

/**
 * One search in the page's worker: its nodes and milliseconds as the worker reports them, and
 * the CPU time the worker's thread used meanwhile (read from outside, so any other Chromium on
 * the machine running a dedicated worker at the same time would be counted too: run it alone).
 */
async function browserSearch(page, level, game, moves) {
  const text = request(nextId++, level, game, moves);
  const cpuBefore = workerCpuMs();
  const reply = await page.evaluate(
    ({ text, waitMs }) => {
      const asked = window.__qiEngine.ask(text);
      if (!asked) throw new Error(`the page could not read the request ${text}`);
      const late = new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no answer to ${text} in ${waitMs} ms`)), waitMs),
      );
      return Promise.race([asked.answer, late]);
    },
    { text, waitMs: ANSWER_MS },
  );
  // `id|move|depth|nodes|ms|ponder|score`
  const [, best, depth, nodes, ms] = String(reply).split('|');
  if (!best) throw new Error(`the worker answered ${text} with no move: ${reply}`);
  const cpuAfter = workerCpuMs();
  const cpu = cpuBefore === null ? NaN : cpuAfter - cpuBefore;
  return { nodes: Number(nodes), ms: Number(ms), depth: Number(depth), best, cpu };
}

/**
 * One native search: `qi think <game> startpos [moves] --level 6`, its last line, and the CPU
 * time it used (the shell's `times` after it: its children's user and system time).
 */
function nativeSearch(game, moves) {
  const args = ['think', game, 'startpos', ...moves, '--level', String(LEVEL)];
  const script = '"$@"; status=$?; echo @times; times; exit $status';
  return new Promise((resolve, reject) => {
    const options = { encoding: 'utf8', timeout: ANSWER_MS };
    execFile('/bin/sh', ['-c', script, 'sh', QI_BIN, ...args], options, (error, stdout, stderr) => {
      if (error) return reject(new Error(`qi ${args.join(' ')}: ${error.message} ${stderr}`));
      const [output, times = ''] = stdout.split('@times');
      const last = output.trim().split('\n').pop() ?? '';
      // `times` prints the shell's own user and system time, then its children's.
      const children = times.trim().split('\n').pop() ?? '';
      const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
      const cpu = seconds.length === 2 ? (seconds[0] + seconds[1]) * 1000 : NaN;
      const number = (key) => {
        const match = last.match(new RegExp(`\\b${key} (\\d+(?:\\.\\d+)?)`));
        if (!match) throw new Error(`no "${key} N" in the last line of qi think: ${last}`);
        return Number(match[1]);
      };
      try {
        resolve({ nodes: number('nodes'), ms: number('time'), depth: number('depth'), cpu });
      } catch (e) {
        reject(e);
      }
    });
  });
}

const nps = (r) => (r.ms > 0 ? (r.nodes * 1000) / r.ms : NaN);
/** Nodes per second of CPU time (NaN where the CPU time was not read). */
const cpuNps = (r) => (r.cpu > 0 ? (r.nodes * 1000) / r.cpu : NaN);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const knps = (value) => `${Math.round(value / 1000)} kN/s`;

if (!existsSync(QI_BIN)) {
  fail(
    `no qi binary at ${QI_BIN}: build it with \`cargo build --release -p qi-cli\` ` +
      '(or set QI_BIN to one)',
  );
}

const server = await startServer(DIST).catch((error) => fail(error.message));
const browser = await launchBrowser().catch((error) => fail(error.message));

console.log(
  `Search speed at level ${LEVEL} (gomoku: after h8), ${RUNS} runs, each the browser's worker ` +
    `(wasm, ${DIST}) and native (${QI_BIN}) one after the other.`,
);
console.log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, load ${os.loadavg()[0].toFixed(2)}.`);

const rows = [];
try {
  for (const [game, moves] of GAMES) {
    // A fresh page for each game: a fresh worker, whose first search is the cold one.
    const app = await openApp(browser, server.url, { settings: { lang: 'en', threads: 1 } });
    try {
      const { page } = app;
      await page.waitForFunction(() => window.__qiEngine, null, { timeout: ANSWER_MS });
      const coldBrowser = await browserSearch(page, LEVEL, game, moves);
      const coldNative = await nativeSearch(game, moves);
      const runs = [];
      for (let i = 0; i < RUNS; i += 1) {
        // A fresh engine for the next search (another level starts afresh).
        await browserSearch(page, 1, game, moves);
        let b;
        let n;
        if (i % 2) {
          n = await nativeSearch(game, moves);
          b = await browserSearch(page, LEVEL, game, moves);
        } else {
          b = await browserSearch(page, LEVEL, game, moves);
          n = await nativeSearch(game, moves);
        }
        runs.push({ browser: b, native: n, ratio: nps(b) / nps(n), cpuRatio: cpuNps(b) / cpuNps(n) });
      }
      if (app.errors.length) throw new Error(`the page reported errors: ${app.errors.join('; ')}`);
      const measured = runs.filter((r) => Number.isFinite(r.ratio) && r.ratio > 0);
      if (measured.length < runs.length) {
        console.log(
          `${game}: ${runs.length - measured.length} of ${RUNS} runs counted no nodes on a side ` +
            '(left out of the median)',
        );
      }
      const ratio = measured.length ? median(measured.map((r) => r.ratio)) : NaN;
      const label = moves.length ? `${game} (after ${moves.join(' ')})` : game;
      console.log(
        `${label}: ratio ${ratio.toFixed(2)} (median of ${measured.length}; goal >= ${GOAL}); browser ` +
          `${knps(median(runs.map((r) => nps(r.browser))))}, native ` +
          `${knps(median(runs.map((r) => nps(r.native))))} (medians)`,
      );
      console.log(
        `  runs (browser/native): ${runs
          .map((r) => `${knps(nps(r.browser))}/${knps(nps(r.native))} = ${r.ratio.toFixed(2)}`)
          .join('; ')}`,
      );
      const cpuRatios = measured.map((r) => r.cpuRatio).filter(Number.isFinite);
      if (cpuRatios.length) {
        // What each search had of a core: its CPU time over its own wall time.
        const share = (side) => median(runs.map((r) => r[side].cpu / r[side].ms));
        console.log(
          `  per CPU second: ratio ${median(cpuRatios).toFixed(2)} (median of ${cpuRatios.length}); ` +
            `browser ${knps(median(runs.map((r) => cpuNps(r.browser))))}, native ` +
            `${knps(median(runs.map((r) => cpuNps(r.native))))}; CPU time over wall time: browser ` +
            `${share('browser').toFixed(2)}, native ${share('native').toFixed(2)}`,
        );
        console.log(`  runs per CPU second: ${cpuRatios.map((r) => r.toFixed(2)).join(', ')}`);
      }
      console.log(
        `  cold (the page's first search, code not yet compiled): ${knps(nps(coldBrowser))}/` +
          `${knps(nps(coldNative))} = ${(nps(coldBrowser) / nps(coldNative)).toFixed(2)}`,
      );
      rows.push({ game, ratio, cpuRatio: cpuRatios.length ? median(cpuRatios) : NaN, runs: runs.map((r) => r.ratio) });
    } finally {
      await app.close();
    }
  }
} catch (error) {
  fail(error.stack || String(error));
} finally {
  await browser.close();
  await server.close();
}

const unmeasured = rows.filter((r) => Number.isNaN(r.ratio)).map((r) => r.game);
const below = rows.filter((r) => r.ratio < GOAL).map((r) => r.game);
if (unmeasured.length) console.log(`Not measured (no nodes counted): ${unmeasured.join(', ')}.`);
console.log(
  below.length
    ? `Below the goal (${GOAL}): ${below.join(', ')}.`
    : `No measured game is below the goal (median ratio >= ${GOAL}).`,
);
