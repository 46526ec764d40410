#!/usr/bin/env node
// First load on a slow phone network, through the real server: qi-server serving the built app,
// headless Chromium with DevTools network emulation (150 ms latency per request, 1.6 Mbps down
// = 200,000 bytes/s, 750 kbps up), a fresh browser context (empty cache) for every load.
//
//   node e2e/bench/bench-first-load.mjs [dist-dir]
//
// env QI_DIST (default <repo>/dist; the argument wins), QI_SERVER_BIN (default
// <repo>/target/release/qi-server), QI_CHROMIUM (default /usr/bin/chromium), QI_RUNS (loads per
// page, default 7).
//
// For the app (index.html) it measures, per load, from navigation start:
// - first paint with content (first-contentful-paint: until then the page is blank);
// - the playable board: the board's cells exist (as in bench.mjs, figure 2), checked by a real
//   click on the e2 pawn that must select it;
// and for the online page (online/) the time until its lobby form is usable (the lobby is shown,
// the socket is connected and "Create game" is enabled).
// Bytes on the wire are DevTools' `Network.loadingFinished` encodedDataLength (body as sent plus
// headers), summed over every request of the load, with each response's content-encoding, so a
// server that compresses shows it; nothing here assumes it does. The online page's WebSocket
// frames are not counted.
//
// It reports; it does not assert (exit 0 unless the benchmark itself cannot run).

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { chromium } = await import(path.join(repo, 'tools/node_modules/playwright-core/index.mjs'));

const CHROMIUM = process.env.QI_CHROMIUM || '/usr/bin/chromium';
const SERVER_BIN = process.env.QI_SERVER_BIN || path.join(repo, 'target', 'release', 'qi-server');
const DIST = path.resolve(process.argv[2] || process.env.QI_DIST || path.join(repo, 'dist'));
const RUNS = Number(process.env.QI_RUNS || 7);
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
/** The phone network: DevTools' model adds the latency to each request and caps throughput. */
const NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: 200_000, // 1.6 Mbps
  uploadThroughput: 93_750, // 750 kbps
};
/** A phone's viewport. */
const VIEWPORT = { width: 360, height: 740 };
const WAIT_MS = 120_000;

// ---------------------------------------------------------------------------------------------
// Helpers

function fail(message) {
  console.error(`bench-first-load: ${message}`);
  process.exit(1);
}

function percentile(values, p) {
  // Nearest rank, as in bench.mjs.
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const ms = (v) => (Number.isFinite(v) ? `${Math.round(v)}` : '-');
const kb = (bytes) => (bytes / 1024).toFixed(1);

async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts qi-server on a free loopback port with `dist` and a temporary data directory. */
async function startQiServer(dist) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'qi-bench-first-load-'));
  const port = await freePort();
  let log = '';
  const child = spawn(SERVER_BIN, ['--addr', `127.0.0.1:${port}`, '--dist', dist, '--data', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}/`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      fail(`qi-server exited with ${child.exitCode}:\n${log}`);
    }
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      fail(`qi-server did not answer ${url} within a minute:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, stop };
}

// ---------------------------------------------------------------------------------------------
// In the page (before its scripts): note when the page is ready, as bench.mjs does for the board.

const BOARD_WATCH = () => {
  const mark = () => {
    if (window.__qiReadyAt === undefined && document.querySelector('.board [data-square]')) {
      window.__qiReadyAt = performance.now();
      return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => {
    if (mark()) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
};

const LOBBY_WATCH = () => {
  const mark = () => {
    if (
      window.__qiReadyAt === undefined &&
      document.querySelector('[data-testid="lobby"] [data-action="create"]:not([disabled])') &&
      document.querySelector('[data-testid="connection"][data-state="connected"]')
    ) {
      window.__qiReadyAt = performance.now();
      return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => {
    if (mark()) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
};

/** A click on the e2 pawn selects it and shows its moves: the board is playable. */
async function clickWorks(page) {
  const box = await page.locator('[data-square="e2"]').boundingBox();
  if (!box) return false;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  return page
    .waitForFunction(
      () =>
        document.querySelector('[data-square="e2"]')?.getAttribute('aria-selected') === 'true' &&
        document.querySelector('[data-square="e4"][data-hint]') !== null,
      null,
      { timeout: 10_000 },
    )
    .then(() => true)
    .catch(() => false);
}

// ---------------------------------------------------------------------------------------------
// One load

/**
 * Loads `url` once in a fresh context on the emulated network. Returns the page's timings and
 * every request with its bytes on the wire.
 */
async function load(browser, url, kind) {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
  await context.addInitScript(kind === 'app' ? BOARD_WATCH : LOBBY_WATCH);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const requests = new Map();
  const entry = (id) => {
    if (!requests.has(id)) requests.set(id, { id, done: false, decoded: 0 });
    return requests.get(id);
  };
  cdp.on('Network.requestWillBeSent', (e) => {
    const r = entry(e.requestId);
    r.url = e.request.url;
    r.type = e.type;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = entry(e.requestId);
    const headers = Object.fromEntries(
      Object.entries(e.response.headers || {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    r.status = e.response.status;
    r.encoding = headers['content-encoding'] || 'identity';
    r.protocol = e.response.protocol;
    r.fromCache = e.response.fromDiskCache || e.response.fromPrefetchCache || false;
  });
  cdp.on('Network.dataReceived', (e) => {
    entry(e.requestId).decoded += e.dataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = entry(e.requestId);
    r.done = true;
    r.wire = e.encodedDataLength;
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = entry(e.requestId);
    r.done = true;
    r.failed = e.errorText;
    r.wire = 0;
  });
  await cdp.send('Network.enable');
  // A fresh context has an empty cache; this also keeps anything from being served from it.
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', NETWORK);

  await page.goto(url, { waitUntil: 'commit', timeout: WAIT_MS });
  await page.waitForFunction(() => window.__qiReadyAt !== undefined, null, { timeout: WAIT_MS });
  const clicked = kind === 'app' ? await clickWorks(page) : null;
  // Let what the page still fetches (its icon, say) finish: quiet for a second, at most 20 s.
  const quietBy = Date.now() + 20_000;
  let quietSince = Date.now();
  while (Date.now() < quietBy) {
    const pending = [...requests.values()].some((r) => !r.done && r.type !== 'WebSocket');
    if (pending) quietSince = Date.now();
    else if (Date.now() - quietSince >= 1000) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const t = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    const end = (test) => {
      const e = resources.find((r) => test(r.name.split('?')[0]));
      return e ? e.responseEnd : NaN;
    };
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return {
      ready: window.__qiReadyAt,
      firstPaint: fcp ? fcp.startTime : NaN,
      html: nav.responseEnd,
      js: end((n) => n.endsWith('.js') && !n.includes('worker')),
      wasm: end((n) => n.endsWith('.wasm') && !n.includes('worker')),
    };
  });
  await context.close();
  if (kind === 'app' && !(t.ready > t.wasm)) {
    fail(`the board appeared (${t.ready} ms) before the wasm arrived (${t.wasm} ms)`);
  }
  const list = [...requests.values()].filter((r) => r.url && !r.url.startsWith('data:'));
  return { ...t, clicked, requests: list };
}

// ---------------------------------------------------------------------------------------------
// A page: RUNS loads

async function measure(browser, base, { name, pathname, kind, readyWord }) {
  const url = base + pathname;
  console.log(`\n${name} (${url}), ${RUNS} loads, fresh context each`);
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    const r = await load(browser, url, kind);
    runs.push(r);
    const wire = r.requests.reduce((sum, q) => sum + (q.wire || 0), 0);
    console.log(
      `   run ${String(run + 1).padStart(2)}: ${readyWord} ${ms(r.ready).padStart(5)} ms` +
        `  (first paint ${ms(r.firstPaint)}, html ${ms(r.html)}, js ${ms(r.js)}, wasm ${ms(r.wasm)})` +
        `  ${kb(wire)} KB on the wire in ${r.requests.length} requests` +
        (r.clicked === false ? '  CLICK DID NOT SELECT THE PAWN' : ''),
    );
  }
  // The first load's requests, one line each.
  console.log('   requests of the first load:');
  console.log(
    `   ${'wire KB'.padStart(9)} ${'body KB'.padStart(9)}  ${'status'.padEnd(6)} ${'encoding'.padEnd(9)} url`,
  );
  for (const r of runs[0].requests) {
    const shown = r.url.startsWith(base) ? r.url.slice(base.length) || '(/)' : r.url;
    console.log(
      `   ${kb(r.wire || 0).padStart(9)} ${kb(r.decoded).padStart(9)}  ${String(r.status ?? '-').padEnd(6)}` +
        ` ${(r.failed ? 'FAILED' : r.encoding ?? '-').padEnd(9)} ${shown}` +
        (r.failed ? ` (${r.failed})` : '') +
        (r.fromCache ? ' (from cache)' : ''),
    );
  }
  const wires = runs.map((r) => r.requests.reduce((sum, q) => sum + (q.wire || 0), 0));
  const encodings = [...new Set(runs[0].requests.filter((r) => r.status).map((r) => r.encoding))];
  return {
    name,
    readyWord,
    ready: runs.map((r) => r.ready),
    firstPaint: runs.map((r) => r.firstPaint).filter(Number.isFinite),
    wire: median(wires),
    requests: runs[0].requests.length,
    encodings,
    clicksFailed: runs.filter((r) => r.clicked === false).length,
  };
}

// ---------------------------------------------------------------------------------------------

if (!existsSync(path.join(DIST, 'index.html'))) {
  fail(`no ${path.join(DIST, 'index.html')}: build the app first (scripts/lib.sh build_app)`);
}
if (!existsSync(SERVER_BIN)) {
  fail(`qi-server not found at ${SERVER_BIN}: cargo build --release -p qi-server, or set QI_SERVER_BIN`);
}
if (!existsSync(CHROMIUM)) {
  fail(`Chromium is missing at ${CHROMIUM}: install it (apt-get install chromium), or set QI_CHROMIUM`);
}

const server = await startQiServer(DIST);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
console.log(
  `bench-first-load: ${DIST} served by ${SERVER_BIN} at ${server.url}; ${browser.version()}; ` +
    `${os.cpus().length} CPUs`,
);
console.log(
  `network: ${NETWORK.latency} ms latency per request, ${(NETWORK.downloadThroughput * 8) / 1e6} Mbps down, ` +
    `${(NETWORK.uploadThroughput * 8) / 1000} kbps up; viewport ${VIEWPORT.width}x${VIEWPORT.height}; no CPU throttling`,
);
const results = [];
try {
  results.push(
    await measure(browser, server.url, {
      name: 'the app',
      pathname: '',
      kind: 'app',
      readyWord: 'playable board',
    }),
  );
  if (existsSync(path.join(DIST, 'online', 'index.html'))) {
    results.push(
      await measure(browser, server.url, {
        name: 'the online page',
        pathname: 'online/',
        kind: 'online',
        readyWord: 'usable lobby',
      }),
    );
  } else {
    console.log(`\n(no ${path.join(DIST, 'online', 'index.html')}: the online page is left out)`);
  }
} finally {
  await browser.close();
  await server.stop();
}

console.log(`\nsummary (${RUNS} loads each; times from navigation start; goal for the app's board <= 1500 ms)`);
console.log(
  `   ${'page'.padEnd(16)} ${'ready'.padEnd(15)} ${'median'.padStart(7)} ${'p95'.padStart(7)}` +
    `  ${'first paint'.padStart(11)}  ${'on the wire'.padStart(11)}  encodings`,
);
for (const r of results) {
  console.log(
    `   ${r.name.padEnd(16)} ${r.readyWord.padEnd(15)} ${ms(median(r.ready)).padStart(4)} ms ${ms(percentile(r.ready, 95)).padStart(4)} ms` +
      `  ${(r.firstPaint.length ? `${ms(median(r.firstPaint))} ms` : 'none').padStart(11)}` +
      `  ${`${kb(r.wire)} KB`.padStart(11)}  ${r.encodings.join(', ')} (${r.requests} requests)`,
  );
  if (r.clicksFailed) console.log(`   WARNING: the click failed after ${r.clicksFailed} of ${RUNS} loads`);
}
console.log('   (first paint: median first-contentful-paint; on the wire: median bytes received, headers included)');
process.exit(0);
