#!/usr/bin/env node
// The game review's benchmark: a 40-move chess game (80 plies) reviewed in the built app in
// headless Chromium, from the click on "Review" to its progress at 100 (every position and
// every check searched), at the app's default budgets (`REVIEW_BUDGET_MS` a position, and
// `CHECK_BUDGET_MS` for each of the two searches that check a move the first pass calls a
// mistake or worse, in crates/tasks/src/review.rs). Three runs, each in a fresh page; it prints each and the median
// (goal <= 30 s). It reports; it does not assert.
//
//   QI_DIST=dist node e2e/bench/bench-review.mjs
//
// The game: the built-in engine against itself at levels 2 to 4 in turn (`qi think chess
// startpos <moves> --level L`), so it has the mistakes a review is for; it is still going after
// 80 plies (`qi play` says "ongoing").

import { DIST, launchBrowser, openApp, startServer } from '../support.mjs';

const GAME = (
  'b1c3 d7d5 e2e3 e7e5 d2d4 b8c6 d4e5 c6e5 g1f3 e5f3 d1f3 c8e6 f1b5 c7c6 b5c6 b7c6 e1g1 d5d4 ' +
  'f3c6 e6d7 c6e4 g8e7 e3d4 d7f5 e4e2 a7a6 c1g5 a8b8 g5e7 f8e7 e2e5 f5c2 e5g7 h8f8 a1e1 c2d3 ' +
  'e1e7 e8e7 f1e1 e7d7 g7g4 f7f5 g4g3 f8e8 e1e8 d8e8 g3d3 e8e1 d3f1 e1f1 g1f1 b8b2 g2g3 b2c2 ' +
  'c3a4 c2a2 a4c5 d7d6 h2h4 a2a1 f1e2 a6a5 c5b7 d6d5 e2e3 f5f4 e3f4 a5a4 b7c5 d5d4 c5a4 a1a4 ' +
  'h4h5 d4d3 f4e5 a4a5 e5e6 d3c4 h5h6 a5a6'
).split(' ');
const RUNS = 3;

const server = await startServer(DIST);
const browser = await launchBrowser();
const times = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const app = await openApp(browser, server.url, {
      preset: { game: 'chess', start: 'startpos:0', moves: GAME },
    });
    const { page } = app;
    const started = Date.now();
    await page.locator('[data-action="review"]').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="review"]')?.dataset.progress === '100',
      null,
      { timeout: 120_000, polling: 100 },
    );
    const took = Date.now() - started;
    const summary = await page.locator('[data-testid="review"] tbody').innerText();
    times.push(took);
    console.log(`run ${run + 1}: ${(took / 1000).toFixed(1)} s for ${GAME.length + 1} positions`);
    if (run === 0) console.log(summary.replace(/^/gm, '   '));
    if (app.errors.length) console.log(`   page errors: ${app.errors.join('; ')}`);
    await app.close();
  }
} finally {
  await browser.close();
  await server.close();
}
times.sort((a, b) => a - b);
console.log(`review of a 40-move chess game: median ${(times[1] / 1000).toFixed(1)} s over ${RUNS} runs (goal <= 30 s)`);
