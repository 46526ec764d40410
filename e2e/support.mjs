// Support for the end-to-end tests and the screenshot script: headless Chromium through
// playwright-core, a small static server that serves the built app under a sub-path, and
// helpers that act on the board the way a player does (real pointer and keyboard events).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from '../tools/node_modules/playwright-core/index.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The repository root (this file lives in `<repo>/e2e/`). */
export const REPO = path.resolve(here, '..');

/** The built app to test: env `QI_DIST`, else `<repo>/dist`. */
export const DIST = path.resolve(process.env.QI_DIST || path.join(REPO, 'dist'));

/** The browser binary; the tests fail (never skip) when it is missing. */
export const CHROMIUM = process.env.QI_CHROMIUM || '/usr/bin/chromium';

/** How long any single wait may take: the test machine is slow and shared. */
export const WAIT_MS = 20_000;

/** The sub-path the app is served under, to prove the build works away from the root. */
export const BASE_PATH = '/qi/';

/**
 * Extra Chromium flags for experiments, from `QI_CHROMIUM_FLAGS`: a JSON list of strings
 * (`QI_CHROMIUM_FLAGS='["--js-flags=--no-liftoff"]'`), since one flag may hold spaces.
 */
function extraChromiumFlags() {
  const text = process.env.QI_CHROMIUM_FLAGS;
  if (!text) return [];
  let flags;
  try {
    flags = JSON.parse(text);
  } catch {
    flags = undefined;
  }
  if (!Array.isArray(flags) || !flags.every((flag) => typeof flag === 'string')) {
    throw new Error(
      `QI_CHROMIUM_FLAGS must be a JSON list of strings, such as '["--js-flags=--no-liftoff"]', ` +
        `not ${text}`,
    );
  }
  return flags;
}

/** Launches headless Chromium, or throws a clear error when it cannot. */
export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: the end-to-end tests need it ` +
        '(install the "chromium" package, or set QI_CHROMIUM to a Chromium binary).',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraChromiumFlags(),
    ],
  });
}

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the directory `dist` under `basePath` (e.g. `/qi/`) on 127.0.0.1 and `port` (a free
 * one by default); with `{ isolated: true }` every response says COOP `same-origin` and COEP
 * `require-corp`, as qi-server's app pages do, so the page is cross-origin isolated; with
 * `{ qiServerMark: true }` it also carries qi-server's `Server-Timing` mark, by which the app
 * knows a Qi server is behind it (`served_by_qi_server` in src/web.rs) and offers online play.
 * Anything outside the sub-path is a 404, so an absolute asset URL in the build shows up as a
 * failed load. Resolves to `{ url, close }`, `url` being the app's address (ending in `/`).
 */
export async function startServer(dist = DIST, basePath = BASE_PATH, port = 0, { isolated = false, qiServerMark = false } = {}) {
  const index = path.join(dist, 'index.html');
  if (!existsSync(index)) {
    throw new Error(`No built app at ${dist} (index.html missing): build it, or set QI_DIST.`);
  }
  const root = path.resolve(dist);
  // Large headers allowed: the tests open very long (hostile) links.
  const server = http.createServer({ maxHeaderSize: 4 * 1024 * 1024 }, (request, response) => {
    const notFound = () => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405);
      response.end();
      return;
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      notFound();
      return;
    }
    if (pathname === basePath.replace(/\/$/, '')) {
      response.writeHead(301, { location: basePath });
      response.end();
      return;
    }
    if (!pathname.startsWith(basePath)) {
      notFound();
      return;
    }
    // A directory is its index.html, as on any static host (`embed/` is the embed page).
    let relative = pathname.slice(basePath.length);
    if (relative === '' || relative.endsWith('/')) relative += 'index.html';
    const file = path.resolve(root, relative);
    if (file !== root && !file.startsWith(root + path.sep)) {
      notFound();
      return;
    }
    let stats;
    try {
      stats = statSync(file);
    } catch {
      notFound();
      return;
    }
    if (!stats.isFile()) {
      notFound();
      return;
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[path.extname(file)] || 'application/octet-stream',
      'content-length': stats.size,
      'cache-control': 'no-store',
      ...(isolated
        ? {
            'cross-origin-opener-policy': 'same-origin',
            'cross-origin-embedder-policy': 'require-corp',
          }
        : {}),
      ...(qiServerMark ? { 'server-timing': 'qi;desc="Qi server"' } : {}),
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    createReadStream(file).pipe(response);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = server.address().port;
  return {
    url: `http://127.0.0.1:${bound}${basePath}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/**
 * The one setup of a test file: the browser, and the server it loads the pages from, started
 * before the file's tests and closed after them (give it `node:test`'s `before` and `after`).
 *
 * - `server: 'static'` (the default) serves `dist` from the static test server (`isolated: true`
 *   for a cross-origin-isolated one); `server: 'qi'` runs the real qi-server (`qi` holds
 *   `startQiServer`'s options); `server: 'none'` starts only the browser (a test that makes its
 *   own servers).
 * - The returned object has `browser`, `server` (the static one), `qi` (the qi-server) and `base`
 *   (the address pages are loaded from), filled once `before` ran; `withApp(options, body, url)`
 *   opens the app (at `base`, or `url`) in a fresh context (`openApp`'s options), runs
 *   `body(page, app)`, and checks that the page reported no errors.
 */
export function sharedSetup({ before, after }, { server = 'static', isolated = false, qi = {} } = {}) {
  const shared = {
    server: null,
    browser: null,
    qi: null,
    get base() {
      return shared.qi?.base ?? shared.server?.url;
    },
    async withApp(options, body, url = shared.base) {
      const app = await openApp(shared.browser, url, options);
      try {
        await body(app.page, app);
        assert.deepEqual(app.errors, [], 'the page reported errors');
      } finally {
        await app.close();
      }
    },
  };
  before(async () => {
    if (server === 'static') shared.server = await startServer(DIST, undefined, 0, { isolated });
    if (server === 'qi') shared.qi = await startQiServer(qi);
    shared.browser = await launchBrowser();
  });
  after(async () => {
    await shared.browser?.close();
    await shared.server?.close();
    await shared.qi?.stop();
  });
  return shared;
}

let axeSource;

/** axe-core's serious and critical violations on `page` as it is, one line each. */
export async function seriousAxeViolations(page) {
  axeSource ??= readFileSync(path.join(REPO, 'tools/node_modules/axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    window.axe.run(document, { resultTypes: ['violations'] }),
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Waits until the app has drawn its board. */
export async function waitForApp(page) {
  await page.locator('.board [data-square]').first().waitFor({ timeout: WAIT_MS });
}

/**
 * Opens the app at `url` in a fresh browser context (so a clean localStorage), English and
 * 1280x900 unless told otherwise. Options:
 * - `query`: appended to the URL (e.g. `?game=xiangqi`);
 * - `viewport`, `colorScheme`: for the context;
 * - `preset`: `{ game, start, moves, settings }` — a game in progress to find in localStorage
 *   (`qi.game.<game>`, with the app's own default rules of that game) and settings lines to put in
 *   `qi.settings` (`game=<game>` is added); the page is reloaded so the app starts from them.
 * - `settings`: `{ key: value }` lines for `qi.settings` (see `Settings::to_storage` in
 *   crates/settings/src/lib.rs: game, mode, level, speed, lang...), written before the very first load (by
 *   an init script, once per page), so the app starts with them — e.g. the computer moving
 *   first;
 * - `initScript`: a function (or source text) to run in the page before the app's scripts on
 *   every load (e.g. to install performance observers).
 *
 * Returns `{ context, page, errors, close }`; `errors` collects uncaught exceptions, console
 * errors and failed requests for the life of the page.
 */
export async function openApp(browser, url, options = {}) {
  const context = await browser.newContext({
    viewport: options.viewport || { width: 1280, height: 900 },
    locale: 'en-US',
    colorScheme: options.colorScheme || 'light',
    // A phone: touch events and a coarse pointer.
    hasTouch: Boolean(options.hasTouch),
    isMobile: Boolean(options.isMobile),
  });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(60_000);
  if (options.settings) {
    await context.addInitScript(initialSettings, options.settings);
  }
  if (options.initScript) {
    await context.addInitScript(options.initScript);
  }
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText;
    // A navigation (a reload or a new address, the test's doing) aborts what the page still
    // had in flight, such as its icon: that is not the app failing.
    if (reason === 'net::ERR_ABORTED') return;
    errors.push(`request failed: ${request.url()} (${reason})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(url + (options.query || ''));
  await waitForApp(page);
  if (options.preset) {
    const before = errors.length;
    await presetGame(page, options.preset);
    // The reload aborts what the first load still had in flight (the favicon, say): that is
    // the test's doing, not the app's.
    for (let i = errors.length - 1; i >= before; i -= 1) {
      if (/^request failed: .* \(net::ERR_ABORTED\)$/.test(errors[i])) errors.splice(i, 1);
    }
  }
  return { context, page, errors, close: () => context.close() };
}

/**
 * Runs in the page before its scripts: writes `settings` into `qi.settings` the first time
 * (a session flag keeps a reload from writing them again, so choices made in the page stick).
 */
function initialSettings(settings) {
  if (window.top !== window || sessionStorage.getItem('qi.e2e.settings')) return;
  sessionStorage.setItem('qi.e2e.settings', '1');
  localStorage.setItem(
    'qi.settings',
    Object.entries(settings)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n'),
  );
}

/**
 * Puts a game in progress (and settings) into localStorage and reloads, so the app restores
 * it. The record's rules are the app's own stored defaults for that game (read back from
 * `qi.settings`), which is what the app requires before it restores a saved game.
 */
export async function presetGame(page, { game, start, moves = [], settings = {} }) {
  await page.evaluate(
    ({ game, start, moves, settings }) => {
      const lines = (localStorage.getItem('qi.settings') || '').split('\n').filter(Boolean);
      const stored = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      const rules = settings[`rules.${game}`] ?? stored[`rules.${game}`];
      if (rules === undefined) throw new Error(`no stored rules for ${game} in qi.settings`);
      Object.assign(stored, settings, { game });
      localStorage.setItem(
        'qi.settings',
        Object.entries(stored)
          .map(([key, value]) => `${key}=${value}`)
          .join('\n'),
      );
      localStorage.setItem(`qi.game.${game}`, `${game}|${rules}|${start}|${moves.join(' ')}`);
    },
    { game, start, moves, settings },
  );
  // The address carries the game shown, and would win over the stored one: open the page
  // without it.
  await page.goto(page.url().split('?')[0]);
  await waitForApp(page);
  const kind = await page.locator('.app').getAttribute('data-current-game');
  if (kind !== game) throw new Error(`preset: the app shows ${kind}, not ${game}`);
  const plies = await page.locator('.move-list [data-ply]').count();
  if (plies !== moves.length) {
    throw new Error(`preset: the app restored ${plies} moves of ${moves.length}`);
  }
}

/** The element of a square or point, e.g. `square(page, 'e2')`. */
export function square(page, name) {
  return page.locator(`[data-square="${name}"]`);
}

/** The piece code on a square (`wP`, `rN`, `?`, `b`...), or `null` when it is empty. */
export async function pieceAt(page, name) {
  const piece = square(page, name).locator('.piece');
  return (await piece.count()) ? piece.getAttribute('data-piece') : null;
}

/** Waits until `name` holds `code` (or is empty when `code` is `null`). */
export async function waitForPiece(page, name, code) {
  const selector =
    code === null
      ? `[data-square="${name}"]:not(:has(.piece))`
      : `[data-square="${name}"] > .piece[data-piece="${code}"]`;
  await page.locator(selector).waitFor({ timeout: WAIT_MS });
}

async function centre(page, name) {
  const target = square(page, name);
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error(`square ${name} is not on screen`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * Drags the piece on `from` to `to` with the mouse: press on the centre of `from`, move in
 * steps (well past the drag threshold) to the centre of `to`, release there.
 */
export async function drag(page, from, to) {
  await square(page, from).waitFor({ timeout: WAIT_MS });
  const start = await centre(page, from);
  const end = await centre(page, to);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 6, start.y + 6, { steps: 2 });
  await page.mouse.move(end.x, end.y, { steps: 8 });
  await page.mouse.up();
}

/** Clicks a square (press and release on it). */
export async function click(page, name) {
  await square(page, name).click({ timeout: WAIT_MS });
}

/** The status panel's text. */
export async function statusText(page) {
  return (await page.locator('[data-testid="status"]').textContent()).trim();
}

/** The game's result as the status panel gives it (`white`, `black`, `red`, `draw`), or `null`. */
export async function result(page) {
  const marker = page.locator('[data-testid="status"] [data-result]');
  return (await marker.count()) ? marker.getAttribute('data-result') : null;
}

/** The moves in the move list, in the game's notation. */
export async function moveList(page) {
  return page.locator('.move-list [data-ply]').allTextContents();
}

/** Waits until the move list holds `count` moves. */
export async function waitForPlies(page, count) {
  await page.waitForFunction(
    (n) => document.querySelectorAll('.move-list [data-ply]').length === n,
    count,
    { timeout: WAIT_MS },
  );
}

/** The Qi server binary the tests run: env `QI_SERVER_BIN`, else the release build. */
export const SERVER_BIN =
  process.env.QI_SERVER_BIN || path.join(REPO, 'target', 'release', 'qi-server');

/**
 * Starts qi-server on a free loopback port serving `dist` with a temporary data directory, and
 * waits until it serves `readyPath` (and the pages in `pages`, which must be built), with the
 * server's own flags `args` (`--tournaments`). Throws,
 * with the server's output, when the binary or a page is missing or the server never answers.
 * Resolves to `{ base, stop }`: `base` is `http://127.0.0.1:<port>/`; `stop()` ends the server
 * and removes its data.
 */
export async function startQiServer({ tag = 'e2e', pages = ['index.html'], readyPath = '', args = [] } = {}) {
  if (!existsSync(SERVER_BIN)) {
    throw new Error(
      `qi-server not found at ${SERVER_BIN}: build it (cargo build --release -p qi-server) ` +
        'or set QI_SERVER_BIN to the server binary.',
    );
  }
  for (const page of pages) {
    if (!existsSync(path.join(DIST, page))) {
      throw new Error(`No ${page} in ${DIST}: build the app (scripts/lib.sh build_app).`);
    }
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `qi-${tag}-`));
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  const server = spawn(SERVER_BIN, ['--addr', `127.0.0.1:${port}`, '--dist', DIST, '--data', dataDir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  server.stdout.on('data', (chunk) => (log += chunk));
  server.stderr.on('data', (chunk) => (log += chunk));
  const base = `http://127.0.0.1:${port}/`;
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill();
      await new Promise((resolve) => server.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`qi-server exited with ${server.exitCode}:\n${log}`);
    try {
      if ((await fetch(base + readyPath)).ok) return { base, stop };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`qi-server did not serve ${base + readyPath} within 60 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Serves one HTML page on another port of loopback: another origin than the app's, as a blog
 * that embeds Qi. Resolves to `{ url, close }`.
 */
export async function startBlog(html) {
  const blog = http.createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise((resolve) => blog.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${blog.address().port}/`, close: () => new Promise((r) => blog.close(r)) };
}
