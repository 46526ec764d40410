#!/usr/bin/env node
// The app's benchmark: three figures for the built app in headless Chromium on this machine.
//
//   node e2e/bench/bench.mjs [dist-dir]        (default: <repo>/dist; build it first with trunk)
//
// 1. first load: every response of the first page load (HTML, JS, wasm, CSS, art), each body
//    gzipped with zlib level 9, summed (goal <= 300 KB);
// 2. navigation to an interactive board: navigation start to the moment the board's cells exist
//    (the wasm app renders them, so this is after the wasm ran), checked by a real click; fresh
//    browser context each time, 15 loads, median and p95 (goal <= 400 ms);
// 3. drop to the next frame: a 100-ply chess game played by real drags; for each drop, pointerup
//    to the first animation frame after the board's DOM changed, p50/p95/max (goal p95 <= 16 ms);
//    3b. the same with "Analyse" on: the worker searches every position shown (goal the same);
// 4. the embed page (embed/, a replay with buttons and move list): its whole download gzipped as
//    in 1 (goal <= 250 KB), and the time to its first board as in 2, median and p95.
//
// It reports; it does not assert (exit 0 unless the benchmark itself cannot run).

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const { chromium } = await import(join(repo, 'tools/node_modules/playwright-core/index.mjs'));

const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const NAV_RUNS = 15;

// A 100-ply chess game (UCI), made by a deterministic walk over `qi moves chess startpos ...`
// that keeps only moves after which `qi play` says "ongoing" and never promotes (no dialog).
// After all 100 plies `qi play chess startpos <these>` gives
// `3B4/1Nbk4/1P4r1/7p/2bp3P/P7/1NR1P1K1/5R2 w - - 3 51` and `ongoing`.
const GAME = [
  'c2c4', 'b8c6', 'a2a3', 'g7g6', 'f2f3', 'c6a5', 'b1c3', 'f7f6', 'd1a4', 'b7b5',
  'e1f2', 'b5c4', 'c3a2', 'g8h6', 'a4d1', 'h6f5', 'g2g3', 'a5b7', 'd2d4', 'a7a6',
  'f3f4', 'a8b8', 'd1b3', 'd7d5', 'g1f3', 'c7c6', 'f2g1', 'f8g7', 'b3b6', 'f5d4',
  'a2b4', 'e8d7', 'b2b3', 'd8f8', 'b6b7', 'b8b7', 'f3e1', 'c4c3', 'e1c2', 'h8g8',
  'a1a2', 'h7h5', 'c1b2', 'b7b8', 'b4a6', 'g7h6', 'c2d4', 'b8b5', 'h2h4', 'e7e5',
  'd4b5', 'g8h8', 'b3b4', 'f6f5', 'b2c1', 'e5f4', 'b5d4', 'd7d6', 'g1h2', 'c6c5',
  'a6c5', 'f8g8', 'a2c2', 'c8d7', 'c2d2', 'g8f7', 'g3f4', 'h6f4', 'h2g2', 'd6c7',
  'c5a4', 'c3c2', 'h1h2', 'd7e6', 'a4b2', 'h8b8', 'd4f5', 'b8g8', 'h2h1', 'f4g3',
  'h1h2', 'g6g5', 'd2c2', 'c7d7', 'h2h1', 'f7f8', 'c1g5', 'e6f7', 'f5d6', 'd5d4',
  'g5d8', 'f7c4', 'b4b5', 'f8f1', 'h1f1', 'g8g7', 'b5b6', 'g7g6', 'd6b7', 'g3c7',
];

// ---------------------------------------------------------------------------------------------
// Helpers

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

function percentile(values, p) {
  // Nearest rank: the smallest value with at least p% of the values at or below it.
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const kb = (bytes) => (bytes / 1024).toFixed(1);
const ms0 = (v) => Math.round(v).toString();
const ms1 = (v) => v.toFixed(1);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** A static server for `root` on 127.0.0.1, no compression, no caching. */
async function serve(root) {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end();
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

// ---------------------------------------------------------------------------------------------
// 1. First load, gzipped

async function firstLoad(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const pending = [];
  page.on('response', (response) => {
    pending.push(
      (async () => {
        const status = response.status();
        let body = null;
        try {
          body = await response.body();
        } catch {
          // A response without a body (redirect) has nothing to count.
        }
        return { url: response.url(), status, body };
      })(),
    );
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('.board [data-square]', { timeout: 30000 });
  await page.waitForLoadState('networkidle');
  const responses = await Promise.all(pending);
  await context.close();

  const files = [];
  for (const { url: u, status, body } of responses) {
    if (!body || status < 200 || status >= 300) {
      files.push({ name: u, status, raw: 0, gzip: 0, counted: false });
      continue;
    }
    const gz = gzipSync(body, { level: 9 }).length;
    files.push({ name: u, status, raw: body.length, gzip: gz, counted: true });
  }
  const total = files.filter((f) => f.counted).reduce((sum, f) => sum + f.gzip, 0);
  console.log('\n1. first load: every response, gzip -9');
  for (const f of files) {
    const name = f.name.startsWith(url) ? f.name.slice(url.length) || '(index)' : f.name;
    if (f.counted) {
      console.log(`   ${kb(f.gzip).padStart(8)} KB gzip  ${kb(f.raw).padStart(8)} KB raw  ${name}`);
    } else {
      console.log(`   (not counted: status ${f.status})  ${name}`);
    }
  }
  console.log(`   ${kb(total).padStart(8)} KB gzip total over ${files.filter((f) => f.counted).length} files`);
  return total;
}

// ---------------------------------------------------------------------------------------------
// 2. Navigation to an interactive board

// Runs before any of the page's scripts: notes when the board's cells first exist.
const BOARD_WATCH = () => {
  const mark = () => {
    if (window.__qiBoardAt === undefined && document.querySelector('.board [data-square]')) {
      window.__qiBoardAt = performance.now();
      return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => {
    if (mark()) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
};

async function navigation(browser, url) {
  console.log(`\n2. navigation to an interactive board: ${NAV_RUNS} loads, fresh context each`);
  const times = [];
  const parts = { html: [], wasm: [], afterWasm: [] };
  let clicksFailed = 0;
  for (let run = 0; run < NAV_RUNS; run++) {
    const context = await browser.newContext();
    await context.addInitScript(BOARD_WATCH);
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__qiBoardAt !== undefined, null, { timeout: 30000 });
    // Where the time went, from the page's own timings (all relative to navigation start).
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource');
      const end = (ext) => {
        const e = res.find((r) => r.name.split('?')[0].endsWith(ext));
        return e ? e.responseEnd : NaN;
      };
      return {
        board: window.__qiBoardAt,
        html: nav.responseEnd,
        domContentLoaded: nav.domContentLoadedEventEnd,
        js: end('.js'),
        wasm: end('.wasm'),
        css: end('.css'),
      };
    });
    // The board is drawn by the wasm app, so it cannot exist before the wasm arrived.
    if (!(t.board > t.wasm)) {
      fail(`run ${run + 1}: the board appeared (${t.board} ms) before the wasm arrived (${t.wasm} ms)`);
    }
    // A click works: picking up the e2 pawn selects it and shows its destinations.
    const box = await page.locator('[data-square="e2"]').boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const clicked = await page
      .waitForFunction(
        () =>
          document.querySelector('[data-square="e2"]')?.getAttribute('aria-selected') === 'true' &&
          document.querySelector('[data-square="e4"][data-hint]') !== null,
        null,
        { timeout: 5000 },
      )
      .then(() => true)
      .catch(() => false);
    if (!clicked) clicksFailed++;
    times.push(t.board);
    parts.html.push(t.html);
    parts.wasm.push(t.wasm);
    parts.afterWasm.push(t.board - t.wasm);
    console.log(
      `   run ${String(run + 1).padStart(2)}: board ${ms0(t.board).padStart(4)} ms` +
        `  (html ${ms0(t.html)}, js ${ms0(t.js)}, css ${ms0(t.css)}, wasm ${ms0(t.wasm)}, ` +
        `DOMContentLoaded ${ms0(t.domContentLoaded)})${clicked ? '' : '  CLICK DID NOT WORK'}`,
    );
    await context.close();
  }
  console.log(
    `   medians: html received ${ms0(median(parts.html))} ms, wasm received ${ms0(median(parts.wasm))} ms,` +
      ` wasm received -> board (compile, start, first render) ${ms0(median(parts.afterWasm))} ms`,
  );
  if (clicksFailed) console.log(`   WARNING: the click failed after ${clicksFailed} of ${NAV_RUNS} loads`);
  return { median: median(times), p95: percentile(times, 95), clicksFailed };
}

// ---------------------------------------------------------------------------------------------
// 4. The embed page: time to the first board (the download is measured by firstLoad)

/** A replay embed of a short chess game with the step buttons and move list, as blogs use it. */
const EMBED_QUERY =
  'embed/?game=chess&moves=e2e4+e7e5+g1f3+b8c6+f1b5+a7a6+b5a4+g8f6+e1g1+f8e7&controls=1&movelist=1';

async function embedBoardTime(browser, url) {
  console.log(`\n4. the embed page: time to the first board, ${NAV_RUNS} loads, fresh context each`);
  const times = [];
  for (let run = 0; run < NAV_RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 400, height: 400 } });
    await context.addInitScript(BOARD_WATCH);
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__qiBoardAt !== undefined, null, { timeout: 30000 });
    times.push(await page.evaluate(() => window.__qiBoardAt));
    await context.close();
  }
  console.log(`   board after ${times.map(ms0).join(', ')} ms`);
  return { median: median(times), p95: percentile(times, 95) };
}

// ---------------------------------------------------------------------------------------------
// 3. Drop to the next frame

// Installed in the page: pointerup (capture, on document) starts a measurement; the first
// change under .board after it asks for an animation frame; that frame's timestamp ends it.
const DROP_PROBE = () => {
  const board = document.querySelector('.board');
  const probe = { up: null, mutated: null, samples: [], expect: null };
  window.__qiDrop = probe;
  document.addEventListener(
    'pointerup',
    () => {
      probe.up = performance.now();
      probe.mutated = null;
    },
    { capture: true },
  );
  new MutationObserver(() => {
    if (probe.up === null || probe.mutated !== null) return;
    probe.mutated = performance.now();
    const up = probe.up;
    const mutated = probe.mutated;
    const expect = probe.expect;
    requestAnimationFrame((frame) => {
      const at = (sq) => document.querySelector(`.board [data-square="${sq}"] .piece`);
      const shown = expect ? at(expect.to) !== null && at(expect.from) === null : true;
      probe.samples.push({
        // Chromium stamps a frame with its begin time, which can precede the change when the
        // main thread was busy as the frame began; the change cannot be shown before it exists.
        frame: Math.max(frame, mutated) - up,
        stamp: frame - up,
        mutation: mutated - up,
        callback: performance.now() - up,
        shown,
      });
      probe.up = null;
    });
  }).observe(board, { childList: true, subtree: true, attributes: true, characterData: true });
};

async function drops(browser, url, analysing = false) {
  const also = analysing ? ', the engine analysing each position in the worker' : '';
  console.log(`\n3${analysing ? 'b' : ''}. drop to the next frame: ${GAME.length} plies of chess by drag${also}`);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('.board [data-square]');
  if (analysing) {
    await page.locator('[data-action="analyse"]').click();
    await page.locator('[data-testid="eval"]').waitFor({ timeout: 10_000 });
  }
  await page.evaluate(DROP_PROBE);
  const centre = async (square) => {
    const box = await page.locator(`.board [data-square="${square}"]`).boundingBox();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  for (let ply = 0; ply < GAME.length; ply++) {
    const move = GAME[ply];
    const from = move.slice(0, 2);
    const to = move.slice(2, 4);
    await page.evaluate((expect) => (window.__qiDrop.expect = expect), { from, to });
    const a = await centre(from);
    const b = await centre(to);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(a.x + 8, a.y + 8, { steps: 2 });
    await page.mouse.move(b.x, b.y, { steps: 4 });
    await page.mouse.up();
    try {
      await page.waitForFunction(
        (n) =>
          document.querySelectorAll('.move-list .move').length === n &&
          window.__qiDrop.samples.length === n,
        ply + 1,
        { timeout: 5000 },
      );
    } catch {
      const notice = await page.locator('[data-testid="notice"]').textContent().catch(() => '');
      fail(`ply ${ply + 1} (${move}) was not played${notice ? `: ${notice.trim()}` : ''}`);
    }
  }
  const played = await page.locator('.move-list .move').count();
  const samples = await page.evaluate(() => window.__qiDrop.samples);
  const result = await page.locator('[data-result]').count();
  await context.close();
  if (played !== GAME.length) fail(`the move list has ${played} moves, not ${GAME.length}`);
  if (result) fail('the game ended before the last move');
  const notShown = samples.filter((s) => !s.shown).length;
  if (notShown) console.log(`   WARNING: ${notShown} frames did not yet show the moved piece`);
  const frames = samples.map((s) => s.frame);
  const stamps = samples.map((s) => s.stamp);
  const early = samples.filter((s) => s.stamp < s.mutation).length;
  const mutations = samples.map((s) => s.mutation);
  const callbacks = samples.map((s) => s.callback);
  const line = (name, v) =>
    console.log(
      `   ${name.padEnd(40)} p50 ${ms1(percentile(v, 50)).padStart(5)}  p95 ${ms1(percentile(v, 95)).padStart(5)}` +
        `  max ${ms1(Math.max(...v)).padStart(5)} ms`,
    );
  console.log(`   ${played} moves in the move list`);
  if (early) console.log(`   ${early} rAF timestamps were before the DOM change; the change's time is used`);
  line('pointerup -> board DOM changed', mutations);
  line('pointerup -> rAF timestamp', stamps);
  line('pointerup -> next frame (figure below)', frames);
  line('pointerup -> that rAF callback ran', callbacks);
  const late = frames.filter((f) => f > 1000 / 60).length;
  console.log(`   ${late} of ${frames.length} drops took longer than one 60 Hz frame (16.7 ms)`);
  return {
    p50: percentile(frames, 50),
    p95: percentile(frames, 95),
    max: Math.max(...frames),
    count: played,
  };
}

// ---------------------------------------------------------------------------------------------

const dist = resolve(process.argv[2] ?? join(repo, 'dist'));
if (!existsSync(join(dist, 'index.html'))) {
  fail(`no ${join(dist, 'index.html')}: build the app first (trunk build --release)`);
}
if (!existsSync(CHROMIUM)) {
  fail(`Chromium is missing at ${CHROMIUM}: install it (apt-get install chromium); the benchmark cannot run without it`);
}

const { server, url } = await serve(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
console.log(`bench: ${dist} served at ${url}; ${browser.version()}; ${os.cpus().length} CPUs`);
let load, nav, drop, dropAnalysing, embedLoad, embedBoard;
try {
  load = await firstLoad(browser, url);
  nav = await navigation(browser, url);
  drop = await drops(browser, url);
  dropAnalysing = await drops(browser, url, true);
  embedLoad = await firstLoad(browser, url + EMBED_QUERY);
  embedBoard = await embedBoardTime(browser, url + EMBED_QUERY);
} finally {
  await browser.close();
  server.close();
}

console.log(`
first load (gzip): ${kb(load)} KB (goal <= 300 KB)
navigation to interactive board: median ${ms0(nav.median)} ms, p95 ${ms0(nav.p95)} ms (goal <= 400 ms)
drop to next frame: p50 ${ms1(drop.p50)} ms, p95 ${ms1(drop.p95)} ms, max ${ms1(drop.max)} ms over ${drop.count} moves (goal p95 <= 16 ms)
drop to next frame while analysing: p50 ${ms1(dropAnalysing.p50)} ms, p95 ${ms1(dropAnalysing.p95)} ms, max ${ms1(dropAnalysing.max)} ms (goal p95 <= 16 ms)
embed page download (gzip): ${kb(embedLoad)} KB (goal <= 250 KB)
embed page, time to first board: median ${ms0(embedBoard.median)} ms, p95 ${ms0(embedBoard.p95)} ms`);
process.exit(0);
