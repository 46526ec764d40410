#!/usr/bin/env node
// How deep the browser's engine searches in a fixed time, against the same engine natively:
// what explains the browser-vs-native match (scripts/browser-match). The same positions are
// searched for `go movetime N` by the app's worker in headless Chromium (e2e/tools/browser-uci.mjs, one
// thread) and by `qi uci`, one after the other, each keeping its table through a game as in a
// match. The positions are the games native plays from a few openings against itself (its own
// moves), so both sides see middlegames a match reaches.
//
//   QI_DIST=<dist dir> QI_BIN=<qi binary> [QI_DEPTH_MS=500] [QI_DEPTH_PLIES=24] \
//     [QI_DEPTH_OPENINGS="e2e4 e7e5 g1f3|d2d4 d7d5"] node e2e/bench/bench-depth.mjs
//
// Prints each position (depth and speed on each side, the moves they chose), then the means:
// depth, nodes a second and their ratio (the speed ratio of e2e/bench/bench-ai.mjs, seen at match
// time), and the wall time of a move. Speed is from each side's last `info` line: native's is
// at its last completed depth (qi uci reports each depth as it ends), the browser's over the
// whole search as e2e/tools/browser-uci.mjs timed it (the page's round trip of a few ms included, so
// the browser's figure is a little low). It reports; it does not assert (exit 0 unless it
// cannot run).

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

import { REPO } from '../support.mjs';

const QI_BIN = path.resolve(process.env.QI_BIN || path.join(REPO, 'target/release/qi'));
const MOVETIME = Number(process.env.QI_DEPTH_MS) || 500;
const PLIES = Number(process.env.QI_DEPTH_PLIES) || 24;
const OPENINGS = (
  process.env.QI_DEPTH_OPENINGS ||
  'e2e4 e7e5 g1f3 b8c6 f1b5 a7a6|d2d4 d7d5 c2c4 e7e6 b1c3 g8f6|e2e4 c7c5 g1f3 d7d6 d2d4 c5d4'
)
  .split('|')
  .map((opening) => opening.trim().split(/\s+/).filter(Boolean));
/** Generous: a search is MOVETIME; the browser's first one also starts the page. */
const ANSWER_MS = 120_000 + MOVETIME * 4;

function fail(message) {
  console.error(`bench-depth: ${message}`);
  process.exit(1);
}

const knps = (nps) => `${Math.round(nps / 1000)} kN/s`;

/** A UCI engine as a child process: send lines, wait for a line matching a pattern. */
function uciEngine(name, command, args, env = {}) {
  const child = spawn(command, args, { cwd: REPO, env: { ...process.env, ...env } });
  const lines = [];
  let waiter = null;
  let exited = null;
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    if (waiter?.pattern.test(line)) waiter.resolve();
  });
  child.stderr.on('data', (data) => process.stderr.write(`${name}: ${data}`));
  child.on('exit', (code) => {
    exited = code;
    waiter?.reject(new Error(`${name} exited (${code}) while asked for ${waiter.pattern}`));
  });
  const until = (pattern) =>
    new Promise((resolve, reject) => {
      if (exited !== null) return reject(new Error(`${name} has exited (${exited})`));
      const timer = setTimeout(() => reject(new Error(`${name}: no ${pattern} in ${ANSWER_MS} ms`)), ANSWER_MS);
      const done = (settle) => (value) => {
        clearTimeout(timer);
        waiter = null;
        settle(value);
      };
      waiter = { pattern, resolve: done(resolve), reject: done(reject) };
      if (lines.some((line) => pattern.test(line))) waiter.resolve();
    });
  const send = (line) => child.stdin.write(`${line}\n`);
  return {
    send,
    /** Sends `line` and returns every line up to the first matching `pattern`. */
    async ask(line, pattern) {
      lines.length = 0;
      send(line);
      await until(pattern);
      return [...lines];
    },
    quit() {
      send('quit');
      setTimeout(() => child.kill(), 3000).unref();
    },
  };
}

/** The deepest depth and the last speed in a search's `info` lines, and its move. */
function searched(lines) {
  const infos = lines.filter((line) => line.startsWith('info '));
  const number = (line, key) => Number(line.match(new RegExp(`\\b${key} (\\d+)`))?.[1] ?? NaN);
  const depth = Math.max(0, ...infos.map((line) => number(line, 'depth')).filter(Number.isFinite));
  const nps = infos.map((line) => number(line, 'nps')).filter(Number.isFinite).pop() ?? NaN;
  const best = lines.find((line) => line.startsWith('bestmove'))?.split(/\s+/)[1];
  return { depth, nps, best };
}

if (!existsSync(QI_BIN)) fail(`no qi binary at ${QI_BIN}: build it with \`cargo build --release -p qi-cli\``);

const native = uciEngine('native', QI_BIN, ['uci']);
const browser = uciEngine('browser', 'node', [path.join(REPO, 'e2e/tools/browser-uci.mjs')], { QI_UCI_THREADS: '1' });
const rows = [];
try {
  for (const engine of [native, browser]) {
    await engine.ask('uci', /^uciok/);
    await engine.ask('isready', /^readyok/);
  }
  console.log(
    `Depth in ${MOVETIME} ms a move: the browser's worker (one thread) and native qi uci, ` +
      `${OPENINGS.length} openings × ${PLIES} plies. Machine: ${os.cpus().length} × ` +
      `${os.cpus()[0]?.model ?? '?'}, load ${os.loadavg()[0].toFixed(2)}.`,
  );
  for (const opening of OPENINGS) {
    for (const engine of [native, browser]) {
      engine.send('ucinewgame');
      await engine.ask('isready', /^readyok/);
    }
    const moves = [...opening];
    for (let ply = 0; ply < PLIES; ply += 1) {
      const position = `position startpos moves ${moves.join(' ')}`;
      const result = new Map();
      // Who goes first alternates, so neither always meets the machine a moment later.
      for (const engine of ply % 2 ? [browser, native] : [native, browser]) {
        engine.send(position);
        const started = performance.now();
        const lines = await engine.ask(`go movetime ${MOVETIME}`, /^bestmove/);
        result.set(engine, { ...searched(lines), wall: performance.now() - started });
      }
      const n = result.get(native);
      const b = result.get(browser);
      rows.push({ native: n, browser: b });
      console.log(
        `${moves.length} plies: native depth ${n.depth} ${knps(n.nps)} ${n.best} (${n.wall.toFixed(0)} ms)` +
          ` | browser depth ${b.depth} ${knps(b.nps)} ${b.best} (${b.wall.toFixed(0)} ms)`,
      );
      if (!n.best || n.best === '0000' || n.best === '(none)') break;
      moves.push(n.best);
    }
  }
} catch (error) {
  fail(error.stack || String(error));
} finally {
  native.quit();
  browser.quit();
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const side = (key) => ({
  depth: mean(rows.map((row) => row[key].depth)),
  nps: mean(rows.map((row) => row[key].nps)),
  wall: mean(rows.map((row) => row[key].wall)),
});
const n = side('native');
const b = side('browser');
const same = rows.filter((row) => row.native.best === row.browser.best).length;
console.log(
  `${rows.length} positions: mean depth native ${n.depth.toFixed(2)}, browser ${b.depth.toFixed(2)} ` +
    `(${(n.depth - b.depth).toFixed(2)} ply less); mean speed native ${knps(n.nps)}, browser ` +
    `${knps(b.nps)} (ratio ${(b.nps / n.nps).toFixed(2)}); the same move in ${same}; ` +
    `wall time a move native ${n.wall.toFixed(0)} ms, browser ${b.wall.toFixed(0)} ms.`,
);
process.exit(0);
