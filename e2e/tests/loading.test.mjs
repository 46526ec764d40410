// End-to-end test of the loading state of the three pages (the app, embed/ and online/): the
// inline #qi-loading is in the HTML as served, shows until the wasm app starts and is gone once
// the board (or the online lobby) is up; when the app's wasm or script does not load, or the
// browser has no WebAssembly, it says so in the player's language, with a button to retry.
// The pages are served by the Qi server (env QI_SERVER_BIN, default
// <repo>/target/release/qi-server), as in production; the test fails (never skips) when it or
// the built pages are missing.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { WAIT_MS, sharedSetup } from '../support.mjs';

const TEST_TIMEOUT = 180_000;
const PAGE_FILES = ['index.html', 'embed/index.html', 'online/index.html'];

/** The three pages: where each is, and what shows that its app is up. */
const PAGES = [
  { name: 'app', path: '', ready: '.board [data-square]', js: /\/qi-app-[^/]*\.js$/ },
  {
    name: 'embed',
    path: 'embed/?game=chess&moves=e2e4+e7e5&controls=1',
    ready: '.board [data-square]',
    js: /\/qi-embed-[^/]*\.js$/,
  },
  { name: 'online', path: 'online/', ready: '[data-testid="lobby"]', js: /\/qi-online-[^/]*\.js$/ },
];

/** What the loading state says, by language (as in the pages' inline script). */
const WORDS = {
  en: { loading: 'Loading…', failed: 'Qi could not load.', retry: 'Try again' },
  zh: { loading: '正在加载…', failed: 'Qi 未能加载。', retry: '重试' },
  vi: { loading: 'Đang tải…', failed: 'Không tải được Qi.', retry: 'Thử lại' },
};

const setup = sharedSetup({ before, after }, {
  server: 'qi',
  qi: { tag: 'loading', pages: PAGE_FILES, readyPath: 'online/' },
});

/** A fresh context (its own storage) and page; `errors` collects uncaught exceptions. */
async function open({ viewport = { width: 1280, height: 800 }, locale = 'en-US', initScript } = {}) {
  const context = await setup.browser.newContext({ viewport, locale });
  context.setDefaultTimeout(WAIT_MS);
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Holds every request for the page's own wasm until `release()` is called. */
async function holdWasm(page) {
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  await page.route(/\.wasm$/, async (route) => {
    await gate;
    await route.continue().catch(() => {});
  });
  return () => release();
}

/** The loading state's text, state and language, as shown. */
async function loadingState(page) {
  const box = page.locator('#qi-loading');
  return {
    visible: await box.isVisible(),
    text: (await box.locator('.qi-loading-text').textContent()).trim(),
    state: await box.getAttribute('data-state'),
    lang: await box.getAttribute('lang'),
    retry: (await box.locator('.qi-loading-retry').isVisible())
      ? (await box.locator('.qi-loading-retry').textContent()).trim()
      : null,
    dark: (await box.getAttribute('class')).split(/\s+/).includes('qi-dark'),
  };
}

test('each page carries the loading state in its HTML, with one shared script and no inline handlers', async () => {
  const scripts = new Set();
  const styles = new Set();
  for (const { name, path: where } of PAGES) {
    const response = await fetch(setup.base + where);
    assert.equal(response.status, 200, `${name}: HTTP ${response.status}`);
    const html = await response.text();
    // The release build minifies the HTML: attributes may come without quotes, in any order.
    assert.match(html, /<div\b(?=[^>]*\bid="?qi-loading\b)(?=[^>]*\bclass="?qi-loading\b)[^>]*>/, `${name}: no #qi-loading`);
    const script = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)]
      .map((m) => m[1])
      .find((text) => /getElementById\(['"`]qi-loading['"`]\)/.test(text));
    assert.ok(script, `${name}: no loading script`);
    scripts.add(script);
    const style = html.match(/<style>([\s\S]*?)<\/style>/)?.[1];
    assert.ok(style?.includes('.qi-loading'), `${name}: no loading style`);
    styles.add(style);
    // What the server's Content-Security-Policy will refuse: inline event handlers,
    // javascript: URLs, eval and new Function.
    const markup = html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, '');
    assert.doesNotMatch(markup, /<[^>]*\son[a-z]+\s*=/i, `${name}: an inline event handler`);
    assert.doesNotMatch(markup, /javascript:/i, `${name}: a javascript: URL`);
    assert.doesNotMatch(script, /\beval\s*\(|new\s+Function\b/, `${name}: eval in the loading script`);
  }
  // One source (static/loading.js) for the three; the release build's minifier names its
  // variables in no fixed order, so the same script is known by its length and its strings.
  const shape = (script) => `${script.length}:${(script.match(/`[^`]*`|'[^']*'|"[^"]*"/g) || []).sort().join('|')}`;
  assert.equal(new Set([...scripts].map(shape)).size, 1, 'the three pages carry different loading scripts');
  assert.equal(styles.size, 1, 'the three pages carry different loading styles');
});

for (const spec of PAGES) {
  test(`${spec.name}: the loading state shows until the app is up, then it is gone`, { timeout: TEST_TIMEOUT }, async () => {
    const { context, page, errors } = await open();
    try {
      const release = await holdWasm(page);
      await page.goto(setup.base + spec.path, { waitUntil: 'domcontentloaded' });
      await page.locator('#qi-loading').waitFor({ state: 'visible' });
      assert.deepEqual(await loadingState(page), {
        visible: true,
        text: WORDS.en.loading,
        state: null,
        lang: 'en',
        retry: null,
        dark: false,
      });
      assert.equal(await page.locator('.qi-loading-spinner').isVisible(), true);
      assert.equal(await page.locator(spec.ready).count(), 0, 'the app is up before its wasm came');
      release();
      await page.locator(spec.ready).first().waitFor();
      assert.equal(await page.locator('#qi-loading').count(), 0, 'the loading state outlived the start');
      assert.deepEqual(errors, []);
      // Once started (Trunk's TrunkApplicationStarted), a later uncaught error is not a failure
      // to load: nothing covers the app.
      await page.evaluate(() => setTimeout(() => Promise.reject(new Error('later'))));
      await page.evaluate(() => setTimeout(() => { throw new Error('later'); }));
      await page.waitForTimeout(200);
      assert.equal(await page.locator('#qi-loading').count(), 0, 'a later error brought the message back');
      assert.deepEqual(errors, ['later', 'later']);
    } finally {
      await context.close();
    }
  });
}

/** The failure cases: which page, what fails, the language asked for and what it must say. */
const FAILURES = [
  { page: 'app', query: '', lang: 'en' },
  { page: 'app', query: '?lang=vi', lang: 'vi' },
  { page: 'embed', query: '', lang: 'en' },
  { page: 'embed', query: '&lang=zh', lang: 'zh' },
  { page: 'online', query: '', lang: 'en' },
  { page: 'online', query: '?lang=zh', lang: 'zh' },
];

for (const { page: name, query, lang } of FAILURES) {
  test(`${name}${query}: a wasm that does not load says so in ${lang}; "try again" loads the page`, { timeout: TEST_TIMEOUT }, async () => {
    const spec = PAGES.find((p) => p.name === name);
    const { context, page } = await open();
    try {
      await page.route(/\.wasm$/, (route) => route.abort('failed'));
      await page.goto(setup.base + spec.path + query);
      await page.locator('#qi-loading[data-state="failed"]').waitFor();
      assert.deepEqual(await loadingState(page), {
        visible: true,
        text: WORDS[lang].failed,
        state: 'failed',
        lang: lang === 'zh' ? 'zh-CN' : lang,
        retry: WORDS[lang].retry,
        dark: false,
      });
      assert.equal(await page.locator('.qi-loading-spinner').isVisible(), false);
      // The network is back: the button reloads the page, and the app starts.
      await page.unroute(/\.wasm$/);
      await page.locator('.qi-loading-retry').click();
      await page.locator(spec.ready).first().waitFor();
      assert.equal(await page.locator('#qi-loading').count(), 0);
    } finally {
      await context.close();
    }
  });
}

test('app: a script that does not load is a failure too, in the saved language and theme', { timeout: TEST_TIMEOUT }, async () => {
  const { context, page } = await open({
    initScript: () => localStorage.setItem('qi.settings', 'lang=zh-CN\ntheme=dark'),
  });
  try {
    await page.route(PAGES[0].js, (route) => route.abort('failed'));
    await page.goto(setup.base);
    await page.locator('#qi-loading[data-state="failed"]').waitFor();
    assert.deepEqual(await loadingState(page), {
      visible: true,
      text: WORDS.zh.failed,
      state: 'failed',
      lang: 'zh-CN',
      retry: WORDS.zh.retry,
      dark: true,
    });
  } finally {
    await context.close();
  }
});

test('embed: without WebAssembly the page says the browser cannot run it (no retry), in the browser language and the asked theme', { timeout: TEST_TIMEOUT }, async () => {
  const { context, page } = await open({
    locale: 'vi-VN',
    viewport: { width: 240, height: 240 },
    initScript: () => {
      delete globalThis.WebAssembly;
    },
  });
  try {
    await page.goto(`${setup.base}${PAGES[1].path}&theme=dark`);
    await page.locator('#qi-loading[data-state="unsupported"]').waitFor();
    const state = await loadingState(page);
    assert.equal(state.lang, 'vi');
    assert.equal(state.text, 'Trình duyệt này không chạy được Qi: cần có WebAssembly.');
    assert.equal(state.retry, null);
    assert.equal(state.dark, true);
    // Small frame: the message stays inside it.
    const box = await page.locator('.qi-loading-text').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 240 && box.y >= 0 && box.y + box.height <= 240);
  } finally {
    await context.close();
  }
});

test('app: a start-up that throws, even after the app emptied the page, is a failure too', { timeout: TEST_TIMEOUT }, async () => {
  const { context, page } = await open();
  try {
    // The page without its integrity attributes (the script below is changed), and the app's
    // script throwing as its wasm start function returns (as a panic would trap there).
    await page.route((url) => url.href === setup.base, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/ integrity="[^"]*"/g, '');
      await route.fulfill({ response, body });
    });
    let changed = false;
    await page.route(PAGES[0].js, async (route) => {
      const response = await route.fetch();
      const text = await response.text();
      const body = text.replace(
        'wasm.__wbindgen_start();',
        "wasm.__wbindgen_start(); throw new WebAssembly.RuntimeError('unreachable');",
      );
      changed = body !== text;
      await route.fulfill({ response, body });
    });
    await page.goto(setup.base);
    await page.locator('#qi-loading[data-state="failed"]').waitFor();
    assert.ok(changed, "the app's script has no `wasm.__wbindgen_start();` to make throw");
    const state = await loadingState(page);
    assert.equal(state.visible, true);
    assert.equal(state.text, WORDS.en.failed);
    assert.equal(state.retry, WORDS.en.retry);
    // On top of whatever the app drew: the button takes the click.
    const hit = await page.evaluate(() => {
      const button = document.querySelector('.qi-loading-retry').getBoundingClientRect();
      const top = document.elementFromPoint(button.x + button.width / 2, button.y + button.height / 2);
      return top?.className;
    });
    assert.equal(hit, 'qi-loading-retry');
  } finally {
    await context.close();
  }
});
