#!/usr/bin/env node
// The engine of the app in the browser, as a UCI engine: headless Chromium opens the built app
// (QI_DIST, default <repo>/dist), and each `go` is an analysis request to the page's Web Worker
// through its test hook (`window.__qiEngine`, src/worker.rs) — the same worker, engine and
// wasm a player meets. So `qi match` can play it against `qi uci` (native) at the same time per
// move:
//
//   qi match --first "node e2e/tools/browser-uci.mjs" --second "target/release/qi uci" \
//            --games 100 --movetime 500
//
// (scripts/browser-match runs exactly that and prints the Elo difference.)
// The page's workers: QI_UCI_THREADS (default 1) splits each search across that many (the
// app's engine-threads setting), as does `setoption name Threads value N`.
// Understood: uci, isready, setoption name UCI_Variant value chess|xiangqi, Threads, ucinewgame,
// position startpos [moves ...], go movetime N (other `go` forms search 1 s), stop (ignored:
// every search has its time), quit. QI_ISOLATED=0 serves the app without COOP/COEP;
// QI_UCI_LOG=<file> logs the conversation.

import { appendFileSync } from 'node:fs';
import readline from 'node:readline';

import { DIST, launchBrowser, startServer } from '../support.mjs';

/** The page's round trip, taken off each move's time as `qi uci` takes its overhead. */
const OVERHEAD_MS = 5;

let variant = 'chess';
let threads = Number(process.env.QI_UCI_THREADS || 1);
let moves = [];
let nextId = 1;
let app = null;
/** Lines handled one after another: a `go` finishes before the next line is read. */
let queue = Promise.resolve();

/** QI_UCI_LOG=<file>: every line in (`<`) and out (`>`) is appended there. */
const log = (line) => process.env.QI_UCI_LOG && appendFileSync(process.env.QI_UCI_LOG, `${line}\n`);

const send = (line) => {
  log(`> ${line}`);
  process.stdout.write(`${line}\n`);
};

async function page() {
  if (app) return app.page;
  const server = await startServer(DIST, undefined, 0, {
    isolated: process.env.QI_ISOLATED !== '0',
  });
  const browser = await launchBrowser();
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(server.url);
  await tab.waitForFunction(() => window.__qiEngine, null, { timeout: 60_000 });
  app = { server, browser, page: tab };
  await setThreads(threads);
  return tab;
}

/** Splits the page's searches across `n` workers (after the app's own setting took effect). */
async function setThreads(n) {
  threads = n;
  if (app) await app.page.evaluate((n) => window.__qiEngine.setThreads(n), n);
}

function record() {
  return `${variant}||startpos:0|${moves.join(' ')}`;
}

/** Asks the page's worker for `text` and waits for the reply's text. */
async function ask(text) {
  const tab = await page();
  return tab.evaluate(async (text) => {
    const asked = window.__qiEngine.ask(text);
    if (!asked) throw new Error(`the page could not read the request ${text.slice(0, 80)}`);
    return asked.answer;
  }, text);
}

async function go(words) {
  const at = words.indexOf('movetime');
  const movetime = at >= 0 ? Number(words[at + 1]) : 1000;
  const budget = Math.max(1, Math.round(movetime - OVERHEAD_MS));
  const id = nextId++;
  const started = performance.now();
  const reply = await ask(`A|${id}|${budget}|1|${record()}`);
  // The time as seen from here, the page's round trip included (a few ms of the move's).
  const ms = Math.max(1, Math.round(performance.now() - started));
  // `id|nodes|depth:cp:35:e2e4 e7e5` (or `mate:3`).
  const [, nodes = '0', line = ''] = (reply ?? '').split('|');
  const [depth, kind, value, pv = ''] = line.split(':');
  const best = pv.split(' ')[0];
  const nps = Math.round((Number(nodes) * 1000) / ms);
  if (best) send(`info depth ${depth} score ${kind} ${value} nodes ${nodes} time ${ms} nps ${nps} pv ${pv}`);
  send(`bestmove ${best || '0000'}`);
}

async function handle(text) {
  const words = text.trim().split(/\s+/);
  switch (words[0]) {
    case 'uci':
      send('id name Qi (browser worker)');
      send('id author Qi');
      send('option name UCI_Variant type combo default chess var chess var xiangqi');
      send(`option name Threads type spin default ${threads} min 1 max 4`);
      send('uciok');
      break;
    case 'isready':
      await page();
      send('readyok');
      break;
    case 'setoption': {
      const name = words.indexOf('name');
      const value = words.indexOf('value');
      if (words[name + 1] === 'UCI_Variant' && value > 0) variant = words[value + 1];
      if (words[name + 1] === 'Threads' && value > 0) await setThreads(Number(words[value + 1]));
      break;
    }
    case 'ucinewgame':
      // A new game forgets the last one's table, as `qi uci` does: any other game clears it.
      await ask(`${nextId++}|1|0|gomoku||startpos:0|h8`);
      break;
    case 'position': {
      const at = words.indexOf('moves');
      moves = at >= 0 ? words.slice(at + 1) : [];
      if (words[1] !== 'startpos') send('info string only startpos positions are understood');
      break;
    }
    case 'go':
      await go(words);
      break;
    case 'quit':
      await app?.browser.close();
      await app?.server.close();
      process.exit(0);
      break;
    default:
      break;
  }
}

const input = readline.createInterface({ input: process.stdin });
input.on('line', (text) => {
  log(`< ${text}`);
  queue = queue.then(() => handle(text)).catch((error) => {
    send(`info string ${String(error.message || error).split('\n')[0]}`);
  });
});
input.on('close', () => {
  queue.then(async () => {
    await app?.browser.close();
    await app?.server.close();
    process.exit(0);
  });
});
