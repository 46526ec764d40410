#!/usr/bin/env node
// Memory over a long computer-against-computer session in one page: the app in watch mode
// (both sides the computer, the shortest pause), a new game of the next kind each time one
// ends (chess, xiangqi, banqi, gomoku, over and over), for QI_SOAK_MINUTES (default 10). Every
// minute it samples the resident memory of the soak browser's renderer processes (the page
// and its worker run there, wasm memories included; read from /proc, the browser's processes
// being those that appeared when it started), the worker's wasm memory, the page's own wasm
// memory (the app: its state, the records, the board's views) and the page's JS heap (CDP),
// and prints them; at the end, the first sample after each game has been played once
// (each game's engine makes its table on first use) and the last side by side. (The page is
// served cross-origin isolated, as qi-server serves it.)
//
//   QI_DIST=<dist dir> [QI_SOAK_MINUTES=10] [QI_SOAK_LEVEL=5] node e2e/bench/soak-memory.mjs
//
// It reports; it does not assert (exit 0 unless the soak itself cannot run). "Flat" means the
// last sample within a few MB of the first: the engine's table is allocated once and kept,
// and nothing else should grow with the moves played.

import { readFileSync, readdirSync } from 'node:fs';

import { DIST, launchBrowser, openApp, startServer } from '../support.mjs';

const MINUTES = Number(process.env.QI_SOAK_MINUTES || 10);
const LEVEL = Number(process.env.QI_SOAK_LEVEL || 5);
const GAMES = ['chess', 'xiangqi', 'banqi', 'gomoku'];

/** Chromium's processes now: pid → command line. */
function chromiumProcesses() {
  const found = new Map();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (/chrom/i.test(command)) found.set(pid, command);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Resident kilobytes of a process, or 0 once it has gone. */
function residentKb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(status.match(/^VmRSS:\s+(\d+)/m)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

const server = await startServer(DIST, undefined, 0, { isolated: true });
const before = chromiumProcesses();
const browser = await launchBrowser();
const app = await openApp(browser, server.url, {
  settings: { game: 'chess', mode: 'watch', level: LEVEL, speed: 2, lang: 'en', volume: 0 },
  // The app's wasm memory: Trunk's loader announces the started module with its exports.
  initScript: () => {
    window.addEventListener('TrunkApplicationStarted', (event) => {
      window.__qiSoakPageMemory = event.detail?.wasm?.memory;
    });
  },
});
const { page } = app;
const cdp = await page.context().newCDPSession(page);

const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);

async function sample() {
  // This browser's renderers: Chromium processes that were not there before it started
  // (a renderer started later, for a new page, counts too).
  let renderers = 0;
  for (const [pid, command] of chromiumProcesses()) {
    if (!before.has(pid) && command.includes('--type=renderer')) renderers += residentKb(pid);
  }
  const heap = await cdp.send('Runtime.getHeapUsage');
  // The worker's wasm memory (its engines' tables and everything else it holds).
  let wasm = 0;
  for (const worker of page.workers()) {
    wasm += await worker.evaluate(() => self.qiWasmMemory?.buffer.byteLength ?? 0).catch(() => 0);
  }
  const pageWasm = await page.evaluate(() => window.__qiSoakPageMemory?.buffer.byteLength ?? 0);
  return { total: renderers * 1024, heap: heap.usedSize, wasm, pageWasm };
}

const started = Date.now();
let games = 0;
let plies = 0;
let next = 1;
const samples = [];
let lastSampleAt = 0;
console.log(`Memory soak: ${MINUTES} min of computer against computer at level ${LEVEL}, one page.`);
while (Date.now() - started < MINUTES * 60_000) {
  const finished = await page.locator('[data-testid="game-over"]').count();
  if (finished) {
    plies += await page.locator('.move-list [data-ply]').count();
    games += 1;
    const game = GAMES[next++ % GAMES.length];
    await page.keyboard.press('Escape').catch(() => {});
    await page.locator('[data-action="new-game"]').click();
    const dialog = page.locator('.dialog.new-game');
    await dialog.waitFor();
    await dialog.locator(`button[data-new-game="${game}"]`).click();
    await dialog.locator('select[data-setting="mode"]').selectOption('watch');
    await dialog.locator('[data-action="start-game"]').click();
    await dialog.waitFor({ state: 'detached' });
  }
  const minute = Math.floor((Date.now() - started) / 60_000);
  if (minute >= lastSampleAt) {
    lastSampleAt = minute + 1;
    const s = await sample();
    samples.push({ minute, games, ...s });
    console.log(
      `  minute ${minute}: renderers ${mb(s.total)} MB resident; worker wasm ${mb(s.wasm)} MB; ` +
        `page wasm ${mb(s.pageWasm)} MB; page JS heap ${mb(s.heap)} MB; ` +
        `${games} games ended, ${plies} plies in them`,
    );
  }
  await page.waitForTimeout(2_000);
}
// From the first sample after each game has been played once (each game's engine makes its
// table on first use, so memory rises until then by design).
const first = samples.find((s) => s.games >= GAMES.length) ?? samples[1] ?? samples[0];
const last = samples.at(-1);
const change = (a, b) => `${mb(a)} -> ${mb(b)} MB (${b >= a ? '+' : ''}${mb(b - a)})`;
console.log(
  `From minute ${first.minute} (${first.games} games played) to ${last.minute}: renderers ` +
    `${change(first.total, last.total)}; worker wasm ${change(first.wasm, last.wasm)}; page wasm ` +
    `${change(first.pageWasm, last.pageWasm)}; page JS heap ${change(first.heap, last.heap)}; ` +
    `${games} games, ${plies} plies in all.`,
);
if (app.errors.length) console.log(`The page reported errors: ${app.errors.join('; ')}`);
await app.close();
await browser.close();
await server.close();
