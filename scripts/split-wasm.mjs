#!/usr/bin/env node
// Splits a page's wasm in two, so the first download holds only what the first screen runs
// (docs/benchmarks.md, "Size budgets"):
//
//   node scripts/split-wasm.mjs dist            the app's page (dist/)
//   node scripts/split-wasm.mjs dist puzzles    the puzzle page (dist/puzzles/), whose first
//                                               screen is also a puzzle in a blog's frame
//
// Run by scripts/lib.sh's build_app once the pages and the engine's worker are built, before
// the service worker and the compressed copies. Steps:
//  1. `qi-wasm-split instrument` makes a copy of the page's wasm whose every function reports
//     itself when it first runs; a copy of dist/ serves it with the glue told to listen.
//  2. Headless Chromium opens that copy and plays the page's first screen, at a desktop's and
//     a phone's width. The app: a first visit and a return to a game under way, each game
//     from a link, a move in each (the board drawn, a piece picked up, its moves shown, a move
//     made). The puzzle page: a puzzle of each game from the database and from a link in an
//     embed, in the three languages, solved. The functions that ran are the profile.
//  3. `qi-wasm-split split` keeps those in the page's wasm and moves the rest to
//     `<name>_later.wasm`, behind stubs that load it when first called.
//  4. The JavaScript glue gets the loader: on a return visit it takes the later module from the
//     service worker's cache before the page starts; otherwise it fetches it once the board is
//     drawn (so it never competes with the first download), and at once, synchronously, if a
//     moved function is called before that (a click in the first second); the page's
//     index.html's integrity hashes are brought up to date.
// A function the profile missed is still there, only later; the split can make the page
// slower for a moment, never wrong.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { WAIT_MS, click, drag, launchBrowser, openApp, startServer, waitForApp, waitForPlies } from '../e2e/support.mjs';

const [dist, pageName = 'app'] = process.argv.slice(2);
/** Each page that is split: its folder in the build, its glue's name, and its first screen. */
const PAGES = {
  app: { folder: '.', glue: /^qi-app-[0-9a-f]+\.js$/, firstScreen: appFirstScreen },
  puzzles: { folder: 'puzzles', glue: /^qi-puzzles-page-[0-9a-f]+\.js$/, firstScreen: puzzleFirstScreen },
};
const page = PAGES[pageName];
if (!dist || !page) {
  console.error(`usage: node scripts/split-wasm.mjs <dist-dir> [${Object.keys(PAGES).join('|')}]`);
  process.exit(2);
}
const SPLITTER = process.env.QI_WASM_SPLIT || resolve('target/release/qi-wasm-split');

const folder = join(dist, page.folder);
const glueName = readdirSync(folder).find((name) => page.glue.test(name));
if (!glueName) throw new Error(`no ${page.glue} in ${folder}: build the page first`);
const stem = glueName.slice(0, -'.js'.length);
const wasmName = `${stem}_bg.wasm`;
const laterName = `${stem}_later.wasm`;
const glue = readFileSync(join(folder, glueName), 'utf8');
const wasm = readFileSync(join(folder, wasmName));

/** Replaces every `from` in `text`, which must occur exactly `count` times (else the glue changed). */
function replaceExactly(text, from, to, count) {
  const found = text.split(from).length - 1;
  if (found !== count) {
    throw new Error(`the wasm-bindgen glue changed: "${from}" found ${found} times, expected ${count}`);
  }
  return text.split(from).join(to);
}

/**
 * The glue with `additions` hooked into its instantiation: `__qi_imports` (the imports),
 * `__qi_prepare` (awaited after the module is instantiated, before it starts),
 * `__qi_before_start` and `__qi_started`.
 */
function hookedGlue(additions) {
  let text = replaceExactly(glue, 'const imports = __wbg_get_imports();', 'const imports = __qi_imports(__wbg_get_imports());', 2);
  text = replaceExactly(text, 'return __wbg_finalize_init(instance, module);', 'return __qi_started(__wbg_finalize_init(instance, module));', 2);
  text = replaceExactly(
    text,
    'const { instance, module } = await __wbg_load(await module_or_path, imports);',
    'const { instance, module } = await __wbg_load(await module_or_path, imports);\n    await __qi_prepare();',
    1,
  );
  text = replaceExactly(text, 'wasm.__wbindgen_start();', '__qi_before_start();\n    wasm.__wbindgen_start();', 1);
  return `${text}\n${additions}\n`;
}

const PROFILE_HOOKS = `
function __qi_imports(imports) {
  const seen = (globalThis.__qiProfile ??= new Set());
  imports.qi_profile = { mark: (index) => { seen.add(index); } };
  return imports;
}
async function __qi_prepare() {}
function __qi_before_start() {}
function __qi_started(exports) { return exports; }
`;

const LOADER = `
// The rest of the page's wasm (scripts/split-wasm.mjs): taken from the service worker's cache
// before the page starts when it is there (a return visit, online or not), else fetched once
// the board is drawn, or at once (a synchronous request, which the service worker does not
// see) if a function of it is called first.
const __qi_later_url = new URL(${JSON.stringify(laterName)}, import.meta.url);
let __qi_later;
let __qi_cached;
const __qi_from_cache = (typeof caches === 'object' ? caches.match(__qi_later_url) : Promise.resolve(undefined))
  .then((response) => (response ? response.arrayBuffer().then((bytes) => WebAssembly.compile(bytes)) : undefined))
  .catch(() => undefined);
async function __qi_prepare() {
  __qi_cached = await __qi_from_cache;
}
function __qi_before_start() {
  if (__qi_cached) __qi_link(__qi_cached);
}
function __qi_link(module) {
  if (__qi_later === undefined) {
    __qi_later = new WebAssembly.Instance(module, { primary: wasm });
    wasm.qi_split_loaded.value = 1;
  }
}
function __qi_load_now() {
  const request = new XMLHttpRequest();
  request.open('GET', __qi_later_url, false);
  request.overrideMimeType('text/plain; charset=x-user-defined');
  request.send();
  if (request.status !== 200) throw new Error('cannot load ' + __qi_later_url + ': ' + request.status);
  const text = request.responseText;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i) & 0xff;
  __qi_link(new WebAssembly.Module(bytes));
}
function __qi_imports(imports) {
  imports.qi_split = { load: __qi_load_now };
  return imports;
}
function __qi_started(exports) {
  const fetchLater = () => {
    if (__qi_later !== undefined) return;
    fetch(__qi_later_url)
      .then((response) => {
        if (!response.ok) throw new Error(response.status + ' ' + response.statusText);
        return response.arrayBuffer();
      })
      .then((bytes) => WebAssembly.compile(bytes))
      .then(__qi_link)
      .catch((error) => console.warn('the rest of the page will load when it is needed:', error));
  };
  // Once the board is drawn (the first screen is up; checked each frame, for five seconds at
  // most) and the page is next idle.
  const whenIdle = () =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(fetchLater, { timeout: 3000 }) : setTimeout(fetchLater, 100);
  const whenDrawn = (frames) => {
    if (document.querySelector('.board [data-square]') || frames > 300) whenIdle();
    else requestAnimationFrame(() => whenDrawn(frames + 1));
  };
  whenDrawn(0);
  return exports;
}
`;

/**
 * The app's first screen: the first visit (no game asked for), then a return to the game it
 * left; each game asked for by a link, bare and with moves, in the three languages; the
 * computer answering a dragged move; a move in each, at a desktop's and a phone's width.
 */
async function appFirstScreen(browser, servers, collect) {
  // Each step: squares clicked (or a drag), and the moves the list holds after it.
  const scenarios = [
    { query: '', steps: [{ click: ['e2', 'e4'], plies: 1 }, { click: ['e7', 'e5'], plies: 2 }] },
    { query: '?game=xiangqi', steps: [{ click: ['h3', 'e3'], plies: 1 }] },
    { query: '?game=banqi', steps: [{ click: ['d4'], plies: 1 }] },
    { query: '?game=gomoku', steps: [{ click: ['h8'], plies: 1 }] },
    { query: '?game=chess&moves=e2e4+e7e5+g1f3+b8c6+f1b5', steps: [{ click: ['a7', 'a6'], plies: 6 }] },
    { query: '?game=xiangqi&moves=h3e3+h10g8', steps: [{ click: ['h1', 'g3'], plies: 3 }] },
    { query: '?lang=zh&game=xiangqi&moves=b3e3+b10c8', steps: [{ click: ['b1', 'c3'], plies: 3 }] },
    { query: '?lang=vi&game=chess&moves=d2d4', steps: [{ click: ['d7', 'd5'], plies: 2 }] },
    { query: '?lang=zh&game=gomoku&moves=h8+h9', steps: [{ click: ['g8'], plies: 3 }] },
    { query: '?lang=vi&game=banqi', steps: [{ click: ['c3'], plies: 1 }] },
    {
      query: '',
      settings: { game: 'chess', mode: 'computer-second', level: 1, lang: 'en' },
      steps: [{ drag: ['e2', 'e4'], plies: 2 }],
    },
  ];
  for (const server of servers) {
    for (const { query, settings, steps } of scenarios) {
      for (const width of [1280, 360]) {
        const app = await openApp(browser, server.url, { query, settings, viewport: { width, height: 800 } });
        try {
          for (const [i, step] of steps.entries()) {
            if (i > 0) {
              await collect(app.page);
              await app.page.reload();
            }
            await waitForApp(app.page);
            if (step.drag) await drag(app.page, ...step.drag);
            for (const square of step.click ?? []) await click(app.page, square);
            await waitForPlies(app.page, step.plies);
            await app.page.waitForTimeout(300);
          }
          await collect(app.page);
          if (app.errors.length) throw new Error(`the profiled page failed: ${app.errors.join('; ')}`);
        } finally {
          await app.close();
        }
      }
    }
  }
}

/** The first row of `game`'s database in the build whose moves a drag or a click can play (no promotion). */
function firstPlainPuzzle(game) {
  const rows = readFileSync(join(dist, 'puzzles', 'data', `${game}.csv`), 'utf8').split('\n').slice(1).filter(Boolean);
  const row = rows.find((line) => line.split(',')[2].split(' ').every((move) => /^[a-z]\d+(-?[a-z]\d+)?$/.test(move)));
  if (!row) throw new Error(`no puzzle in ${game}.csv that a drag can solve`);
  const [id, , moves] = row.split(',');
  return { id, row, moves: moves.split(' ') };
}

/**
 * The puzzle page's first screen: a puzzle of each game from the database (the page as a
 * player opens it) and the same puzzle carried by its link inside a blog's frame (`embed=1`),
 * each in one of the three languages, solved, at a desktop's and a phone's width.
 */
async function puzzleFirstScreen(browser, servers, collect) {
  const languages = ['en', 'zh', 'vi'];
  const games = ['chess', 'xiangqi', 'banqi', 'gomoku'];
  for (const server of servers) {
    for (const [n, game] of games.entries()) {
      const puzzle = firstPlainPuzzle(game);
      const lang = languages[n % languages.length];
      const queries = [
        `puzzles/?puzzle=${game}:${puzzle.id}&lang=${lang}`,
        `puzzles/?puzzle=${game}:${puzzle.id}&row=${encodeURIComponent(puzzle.row)}&embed=1&lang=${languages[(n + 1) % languages.length]}`,
      ];
      for (const query of queries) {
        for (const width of [1280, 360]) {
          const context = await browser.newContext({ viewport: { width, height: 800 }, locale: 'en-US' });
          // Where the page is served by a Qi server it asks for the account's puzzle ratings
          // and sends each result: a signed-in player's answers, as qi-server gives them (the
          // static copy has no server behind it).
          const rating = { game, rating: 1500, deviation: 350, volatility: 0.06, tried: 0, solved: 0 };
          await context.route('**/api/puzzles', (route) =>
            route.fulfill({
              contentType: 'application/json',
              body: JSON.stringify(route.request().method() === 'POST' ? { ...rating, tried: 1, solved: 1 } : [rating]),
            }),
          );
          const tab = await context.newPage();
          const errors = [];
          tab.on('pageerror', (error) => errors.push(error.message));
          try {
            await tab.goto(server.url + query);
            await tab.locator('[data-testid="puzzle-status"][data-state="solving"]').waitFor({ timeout: WAIT_MS });
            for (let i = 1; i < puzzle.moves.length; i += 2) {
              const [from, to] = puzzle.moves[i].split(/-|(?<=\d)(?=[a-z])/);
              if (to) await drag(tab, from, to);
              else await click(tab, from);
              // The reply comes half a second after a right move.
              if (i + 1 < puzzle.moves.length) await tab.waitForTimeout(900);
            }
            await tab.locator('[data-testid="puzzle-status"][data-state="solved"]').waitFor({ timeout: WAIT_MS });
            await collect(tab);
            if (errors.length) throw new Error(`the profiled page failed: ${errors.join('; ')}`);
          } finally {
            await context.close();
          }
        }
      }
    }
  }
}

const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

function run(args) {
  return execFileSync(SPLITTER, args, { encoding: 'utf8' }).trim();
}

// 1. The instrumented copy.
const work = mkdtempSync(join(tmpdir(), 'qi-split-'));
const profiled = join(work, 'dist');
try {
  cpSync(dist, profiled, { recursive: true });
  const profiledFolder = join(profiled, page.folder);
  console.log(run(['instrument', join(folder, wasmName), join(profiledFolder, wasmName)]));
  writeFileSync(join(profiledFolder, glueName), hookedGlue(PROFILE_HOOKS));
  const index = readFileSync(join(profiledFolder, 'index.html'), 'utf8');
  writeFileSync(join(profiledFolder, 'index.html'), index.replace(/ integrity=("?)sha384-[A-Za-z0-9+/=]+\1/g, ''));
  // The copy's own service worker, as the page registers one (the build's comes after the split).
  execFileSync(process.execPath, [resolve('scripts/service-worker.mjs'), profiled], { stdio: 'ignore' });

  // 2. The first screen of each game, in Chromium, served as a static host does and as
  // qi-server does (cross-origin isolated, so the page offers the engine's threads, and with
  // the server's mark, so it offers online play).
  const servers = [
    await startServer(profiled),
    await startServer(profiled, undefined, 0, { isolated: true, qiServerMark: true }),
  ];
  const browser = await launchBrowser();
  const seen = new Set();
  const collect = async (page) => {
    for (const index of await page.evaluate(() => [...(globalThis.__qiProfile ?? [])])) seen.add(index);
  };
  try {
    await page.firstScreen(browser, servers, collect);
  } finally {
    await browser.close();
    for (const server of servers) await server.close();
  }
  if (seen.size < 100) throw new Error(`the profile saw only ${seen.size} functions run: is the page working?`);
  const profile = join(work, 'profile.txt');
  writeFileSync(profile, [...seen].sort((a, b) => a - b).join('\n'));

  // 3. The split.
  const primary = join(work, 'primary.wasm');
  console.log(run(['split', join(folder, wasmName), profile, primary, join(folder, laterName)]));
  const primaryBytes = readFileSync(primary);
  writeFileSync(join(folder, wasmName), primaryBytes);

  // 4. The loader, and the integrity hashes of the two changed files.
  const loaderGlue = hookedGlue(LOADER);
  writeFileSync(join(folder, glueName), loaderGlue);
  let index2 = readFileSync(join(folder, 'index.html'), 'utf8');
  for (const [before, after] of [
    [wasm, primaryBytes],
    [Buffer.from(glue), Buffer.from(loaderGlue)],
  ]) {
    const old = sri(before);
    if (index2.includes(old)) index2 = index2.replace(old, sri(after));
  }
  writeFileSync(join(folder, 'index.html'), index2);
  console.log(`split-wasm: ${seen.size} functions seen on the first screen; ${wasmName} ${primaryBytes.length} bytes, ${laterName} ${readFileSync(join(folder, laterName)).length} bytes`);
} finally {
  // QI_SPLIT_KEEP=1 keeps the instrumented copy and the profile, to study a split.
  if (process.env.QI_SPLIT_KEEP) console.log(`split-wasm: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
