#!/usr/bin/env node
// Memory over a long computer-against-computer session in one page: the app in watch mode
// (both sides the computer, the shortest pause), a new game of the next kind each time one
// ends (chess, xiangqi, banqi, gomoku, over and over), for QI_SOAK_MINUTES (default 10). Every
// minute it samples the page's memory with `performance.measureUserAgentSpecificMemory()`
// (the page, its worker and the worker's wasm memory together; the page is served
// cross-origin isolated, which that call needs) and the page's JS heap (CDP), and prints them;
// at the end, the first and the last samples after the first minute side by side.
//
//   QI_DIST=<dist dir> [QI_SOAK_MINUTES=10] [QI_SOAK_LEVEL=5] node e2e/soak-memory.mjs
//
// It reports; it does not assert (exit 0 unless the soak itself cannot run). "Flat" means the
// last sample within a few MB of the first: the engine's table is allocated once and kept,
// and nothing else should grow with the moves played.

import { DIST, launchBrowser, openApp, startServer } from './support.mjs';

const MINUTES = Number(process.env.QI_SOAK_MINUTES || 10);
const LEVEL = Number(process.env.QI_SOAK_LEVEL || 5);
const GAMES = ['chess', 'xiangqi', 'banqi', 'gomoku'];

const server = await startServer(DIST, undefined, 0, { isolated: true });
const browser = await launchBrowser();
const app = await openApp(browser, server.url, {
  settings: { game: 'chess', mode: 'watch', level: LEVEL, speed: 2, lang: 'en', volume: 0 },
});
const { page } = app;
const cdp = await page.context().newCDPSession(page);

const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);

async function sample() {
  // Asks the browser to count at its next garbage collection: it may take some seconds.
  const all = await page.evaluate(async () => {
    const result = await performance.measureUserAgentSpecificMemory();
    const byKind = {};
    for (const entry of result.breakdown) {
      for (const type of entry.types.length ? entry.types : ['other']) {
        byKind[type] = (byKind[type] ?? 0) + entry.bytes / entry.types.length || 0;
      }
    }
    return { bytes: result.bytes, byKind };
  });
  const heap = await cdp.send('Runtime.getHeapUsage');
  return { total: all.bytes, byKind: all.byKind, heap: heap.usedSize };
}

const started = Date.now();
let games = 0;
let plies = 0;
let next = 1;
const samples = [];
let lastSampleAt = 0;
console.log(`Memory soak: ${MINUTES} min of computer against computer at level ${LEVEL}, one page.`);
while (Date.now() - started < MINUTES * 60_000) {
  const over = await page.locator('.app[data-result]').count().catch(() => 0);
  const finished = over || (await page.locator('[data-testid="game-over"]').count());
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
    samples.push({ minute, ...s });
    const kinds = Object.entries(s.byKind)
      .map(([kind, bytes]) => `${kind} ${mb(bytes)}`)
      .join(', ');
    console.log(
      `  minute ${minute}: ${mb(s.total)} MB in all (${kinds}); page JS heap ${mb(s.heap)} MB; ` +
        `${games} games ended, ${plies} plies in them`,
    );
  }
  await page.waitForTimeout(2_000);
}
const first = samples.find((s) => s.minute >= 1) ?? samples[0];
const last = samples.at(-1);
console.log(
  `From minute ${first.minute} to ${last.minute}: ${mb(first.total)} -> ${mb(last.total)} MB in all ` +
    `(${last.total >= first.total ? '+' : ''}${mb(last.total - first.total)} MB); page JS heap ` +
    `${mb(first.heap)} -> ${mb(last.heap)} MB; ${games} games, ${plies} plies.`,
);
if (app.errors.length) console.log(`The page reported errors: ${app.errors.join('; ')}`);
await app.close();
await browser.close();
await server.close();
