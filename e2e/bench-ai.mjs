#!/usr/bin/env node
// The computer's search speed in the browser (wasm in the app's Web Worker) against the same
// search run natively by the `qi` command line, for each game.
//
//   QI_DIST=<dist dir> QI_BIN=<qi binary> node e2e/bench-ai.mjs
//
// (defaults: <repo>/dist, built with `trunk build --release`, and <repo>/target/release/qi,
// built with `cargo build --release -p qi-cli`.)
//
// Browser: a fresh page with the computer moving first at level 6 (settings preset before the
// first load); the search of its first move, as the page reports it under the status
// (`[data-testid="engine-info"]`: data-nodes, data-ms, data-nps). Native: `qi think <game>
// startpos --level 6`, the `nps` of its last line. Both search the start position at the same
// level, so their nodes per second compare (gomoku: after a stone in the centre, since the
// engine answers the empty board without a search). Three runs each, the best kept.
//
// It reports; it does not assert (exit 0 unless the benchmark itself cannot run).

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { DIST, REPO, launchBrowser, openApp, startServer } from './support.mjs';

/**
 * The games and the moves played before the search. Gomoku is searched after one stone in the
 * centre: on the empty board the engine plays the centre without searching (no nodes), so the
 * start position would measure nothing.
 */
const GAMES = [
  ['chess', []],
  ['xiangqi', []],
  ['banqi', []],
  ['gomoku', ['h8']],
];
const RUNS = 3;
const LEVEL = 6;
const GOAL = 0.8;
/** Generous: the worker starts on first use, and the machine is shared. */
const ANSWER_MS = 120_000;
const QI_BIN = path.resolve(process.env.QI_BIN || path.join(REPO, 'target/release/qi'));

function fail(message) {
  console.error(`bench-ai: ${message}`);
  process.exit(1);
}

/**
 * One search in the browser: the computer's first move in a fresh page (after `moves`, preset
 * as the game in progress, with the computer to move).
 */
async function browserRun(browser, url, game, moves) {
  // The computer moves first, or second when one move is preset.
  const mode = moves.length % 2 ? 'computer-second' : 'computer-first';
  const app = await openApp(browser, url, {
    settings: { game, mode, level: LEVEL, lang: 'en', threads: 1 },
    preset: moves.length ? { game, start: 'startpos', moves } : undefined,
  });
  try {
    const { page } = app;
    const kind = await page.locator('.app').getAttribute('data-current-game');
    if (kind !== game) throw new Error(`the page shows ${kind}, not ${game}`);
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('.move-list [data-ply]').length > n &&
        document.querySelector('[data-testid="engine-info"]'),
      moves.length,
      { timeout: ANSWER_MS },
    );
    const info = page.locator('[data-testid="engine-info"]');
    const read = async (name) => Number(await info.getAttribute(name));
    const run = {
      nodes: await read('data-nodes'),
      ms: await read('data-ms'),
      nps: await read('data-nps'),
      text: (await info.textContent()).trim(),
    };
    if (app.errors.length) throw new Error(`the page reported errors: ${app.errors.join('; ')}`);
    return run;
  } finally {
    await app.close();
  }
}

/** One native search: `qi think <game> startpos [moves] --level 6`, its last line. */
function nativeRun(game, moves) {
  const args = ['think', game, 'startpos', ...moves, '--level', String(LEVEL)];
  const out = spawnSync(QI_BIN, args, { encoding: 'utf8', timeout: ANSWER_MS });
  if (out.error) throw out.error;
  if (out.status !== 0) throw new Error(`qi ${args.join(' ')}: exit ${out.status}: ${out.stderr}`);
  const last = out.stdout.trim().split('\n').pop() ?? '';
  const number = (key) => {
    const match = last.match(new RegExp(`\\b${key} (\\d+(?:\\.\\d+)?)`));
    if (!match) throw new Error(`no "${key} N" in the last line of qi think: ${last}`);
    return Number(match[1]);
  };
  return { nodes: number('nodes'), ms: number('time'), nps: number('nps'), text: last };
}

const best = (runs) => runs.reduce((a, b) => (b.nps > a.nps ? b : a));
const knps = (nps) => `${Math.round(nps / 1000)} kN/s`;
const detail = (r) => `${r.nodes} nodes in ${Math.round(r.ms)} ms`;

if (!existsSync(QI_BIN)) {
  fail(
    `no qi binary at ${QI_BIN}: build it with \`cargo build --release -p qi-cli\` ` +
      '(or set QI_BIN to one)',
  );
}

const server = await startServer(DIST).catch((error) => fail(error.message));
const browser = await launchBrowser().catch((error) => fail(error.message));

console.log(
  `Search speed at level ${LEVEL} from the start position (gomoku: after h8), best of ${RUNS}: the browser's ` +
    `worker (wasm, ${DIST}) against native (${QI_BIN}).`,
);
console.log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, load ${os.loadavg()[0].toFixed(2)}.`);

const rows = [];
try {
  for (const [game, moves] of GAMES) {
    const inBrowser = [];
    const native = [];
    for (let i = 0; i < RUNS; i += 1) {
      inBrowser.push(await browserRun(browser, server.url, game, moves));
      native.push(nativeRun(game, moves));
    }
    const b = best(inBrowser);
    const n = best(native);
    const ratio = n.nps > 0 ? b.nps / n.nps : NaN;
    const ratioText = Number.isFinite(ratio)
      ? ratio.toFixed(2)
      : 'n/a (the native search counted no nodes: placeholder engine?)';
    const label = moves.length ? `${game} (after ${moves.join(' ')})` : game;
    console.log(
      `${label}: browser ${knps(b.nps)}, native ${knps(n.nps)}, ratio ${ratioText} (goal >= ${GOAL})`,
    );
    console.log(
      `  browser runs: ${inBrowser.map((r) => `${knps(r.nps)} (${detail(r)})`).join('; ')}`,
    );
    console.log(`  native runs:  ${native.map((r) => `${knps(r.nps)} (${detail(r)})`).join('; ')}`);
    if (game === 'banqi') {
      console.log(
        '  note: the browser searches a fresh random deal (a new seed per page) and the native ' +
          'search deal 0 (`startpos`); the positions differ, but both are face-down starts, so ' +
          'nodes per second still compare.',
      );
    }
    rows.push({ game, browser: b.nps, native: n.nps, ratio });
  }
} catch (error) {
  fail(error.stack || String(error));
} finally {
  await browser.close();
  await server.close();
}

const measured = rows.filter((r) => Number.isFinite(r.ratio));
const below = measured.filter((r) => r.ratio < GOAL).map((r) => r.game);
const unmeasured = rows.filter((r) => !Number.isFinite(r.ratio)).map((r) => r.game);
if (measured.length) {
  console.log(
    below.length
      ? `Below the goal (${GOAL}): ${below.join(', ')}.`
      : `Every measured game meets the goal (ratio >= ${GOAL}).`,
  );
}
if (unmeasured.length) console.log(`Not measured (no nodes counted): ${unmeasured.join(', ')}.`);
