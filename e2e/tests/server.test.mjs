// End-to-end test of the app as qi-server (env QI_SERVER_BIN, default
// <repo>/target/release/qi-server) serves it: the three pages under their Content-Security-
// Policy play as they do anywhere (a move, the computer in its worker, a hint, the embed preview
// in its frame, the online lobby's socket) with no policy violation; the wasm and scripts go out
// brotli-compressed; the online page refuses to be framed by another origin while the embed
// does not. Fails (never skips) when the server or the build is missing.

import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';

import { WAIT_MS, drag, openApp, sharedSetup } from '../support.mjs';

const TEST_TIMEOUT = 180_000;

const setup = sharedSetup({ before, after }, {
  server: 'qi',
  qi: { tag: 'server', pages: ['index.html', 'embed/index.html', 'online/index.html'] },
});
let framer;
let framerUrl;

/** Records every policy violation of the page (and its frames) in `window.__violations`. */
function watchViolations() {
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
  });
}

async function violations(page) {
  const found = [];
  for (const frame of page.frames()) {
    found.push(...(await frame.evaluate(() => window.__violations || []).catch(() => [])));
  }
  return found;
}

before(async () => {
  // A page on another origin that frames the embed and the online page.
  framer = http.createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><iframe id="embed" src="${setup.base}embed/?game=chess&moves=e2e4"></iframe>` +
        `<iframe id="online" src="${setup.base}online/"></iframe>`,
    );
  });
  await new Promise((resolve) => framer.listen(0, '127.0.0.1', resolve));
  framerUrl = `http://127.0.0.1:${framer.address().port}/`;
});

after(() => framer?.close());

test('the app plays under its policy, with the computer, a hint and the embed preview', { timeout: TEST_TIMEOUT }, async () => {
  const encodings = new Map();
  const app = await openApp(setup.browser, setup.base, {
    query: '?game=chess',
    initScript: watchViolations,
    settings: { game: 'chess', mode: 'computer-second', level: 1, lang: 'en' },
  });
  app.page.on('response', (response) => {
    encodings.set(new URL(response.url()).pathname, response.headers()['content-encoding'] || '');
  });
  try {
    const { page } = app;
    await drag(page, 'e2', 'e4');
    // The computer answers from its worker (a wasm of its own, under the same policy).
    await page.waitForFunction(
      () => document.querySelectorAll('.move-list [data-ply]').length === 2,
      null,
      { timeout: 60_000 },
    );
    await page.locator('[data-action="hint"]:not([disabled])').click();
    await page.locator('.board .cell.suggested').first().waitFor({ timeout: 60_000 });
    await page.locator('[data-action="embed"]').click();
    const frame = page.frameLocator('[data-testid="embed-preview"]');
    await frame.locator('.board [data-square]').first().waitFor();
    assert.deepEqual(await violations(page), [], 'no policy violation');
    assert.deepEqual(app.errors, [], 'no error');
    const main = await page.request.get(setup.base, { headers: { 'accept-encoding': 'br, gzip' } });
    const policy = main.headers()['content-security-policy'];
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
  } finally {
    await app.close();
  }
  const wasm = [...encodings].filter(([name]) => name.endsWith('.wasm'));
  assert.ok(wasm.length >= 1, 'the wasm was loaded');
  for (const [name, encoding] of wasm) assert.equal(encoding, 'br', name);
});

test('the embed and the online lobby run under their policies', { timeout: TEST_TIMEOUT }, async () => {
  const context = await setup.browser.newContext({ locale: 'en-US' });
  try {
    await context.addInitScript(watchViolations);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${setup.base}embed/?game=xiangqi&moves=h3e3+h10g8&controls=1&movelist=1&play=1`);
    await page.locator('.board [data-square]').first().waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await violations(page), [], 'no violation in the embed');
    await page.goto(`${setup.base}online/`);
    // The lobby's form is there once the page's socket said hello.
    await page.locator('input, button').first().waitFor({ timeout: WAIT_MS });
    await page.waitForFunction(() => !document.body.innerText.includes('needs the server'), null, { timeout: WAIT_MS });
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('another site may frame the embed but not the online page', { timeout: TEST_TIMEOUT }, async () => {
  const context = await setup.browser.newContext({ locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(framerUrl);
    const embed = page.frameLocator('#embed');
    await embed.locator('.board [data-square]').first().waitFor({ timeout: WAIT_MS });
    // The browser refuses to show the online page in the frame: it gets its error page.
    const deadline = Date.now() + WAIT_MS;
    while (!page.frames().some((f) => f.url().startsWith('chrome-error://')) && Date.now() < deadline) {
      await page.waitForTimeout(100);
    }
    const urls = page.frames().map((f) => f.url());
    assert.ok(urls.some((u) => u.startsWith('chrome-error://')), `refused: ${urls.join(' ')}`);
    assert.ok(!urls.some((u) => u.includes('/online/')), `not shown: ${urls.join(' ')}`);
  } finally {
    await context.close();
  }
});
