// Accessibility (issue 19): every dialog holds the focus and gives it back; moves are said in
// the live region; axe-core finds no serious or critical violation in the app's four games
// with each dialog open, at 360 and 1280 px, in the light and the dark theme.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';

import {
  DIST,
  REPO,
  WAIT_MS,
  drag,
  launchBrowser,
  openApp,
  startQiServer,
  startServer,
  waitForPlies,
} from './support.mjs';

const TEST_TIMEOUT = 600_000;
const AXE = readFileSync(`${REPO}/tools/node_modules/axe-core/axe.min.js`, 'utf8');

let server;
let browser;

before(async () => {
  server = await startServer(DIST);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function withApp(options, body) {
  const app = await openApp(browser, server.url, options);
  try {
    await body(app.page);
    assert.deepEqual(app.errors, [], 'the page reported errors');
  } finally {
    await app.close();
  }
}

/** What has the keyboard focus: its data-action, else its tag and class. */
const focused = (page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return element?.getAttribute('data-action') || `${element?.tagName}.${element?.className}`;
  });

/** Whether the focus is inside the open dialog. */
const focusInDialog = (page) =>
  page.evaluate(() => Boolean(document.activeElement?.closest('[role=dialog]')));

const DIALOGS = [
  ['share', '.dialog.share'],
  ['embed', '.dialog.embed-dialog'],
  ['records', '.dialog.records'],
  ['new-game', '.dialog.new-game'],
];

test('every dialog takes the focus, keeps Tab inside, closes with Escape and gives the focus back', { timeout: TEST_TIMEOUT }, () =>
  withApp({ settings: { lang: 'en' } }, async (page) => {
    for (const [action, selector] of DIALOGS) {
      const opener = page.locator(`[data-action="${action}"]`).first();
      await opener.focus();
      await page.keyboard.press('Enter');
      await page.locator(selector).waitFor();
      assert.ok(await focusInDialog(page), `${action}: the focus moved in`);
      // Forty Tabs and forty Shift+Tabs never leave it.
      for (const key of ['Tab', 'Shift+Tab']) {
        for (let i = 0; i < 40; i += 1) {
          await page.keyboard.press(key);
          assert.ok(await focusInDialog(page), `${action}: ${key} ${i + 1} left the dialog`);
        }
      }
      // The page behind is inert: not clickable, not focusable, not read.
      const inert = await page.evaluate(() => Boolean(document.querySelector('.board')?.closest('[inert]')));
      assert.ok(inert, `${action}: the board behind is inert`);
      await page.keyboard.press('Escape');
      await page.locator(selector).waitFor({ state: 'detached' });
      assert.equal(await focused(page), action, `${action}: the focus went back to its button`);
      const live = await page.evaluate(() => !document.querySelector('[inert]'));
      assert.ok(live, `${action}: the page is live again`);
    }
  }),
);

test('the promotion chooser takes the focus and Escape cancels the move', { timeout: TEST_TIMEOUT }, () =>
  withApp(
    { settings: { lang: 'en', mode: 'hotseat' }, preset: { game: 'chess', start: '8/P6k/8/8/8/8/8/K7 w - - 0 1', moves: [] } },
    async (page) => {
      await drag(page, 'a7', 'a8');
      await page.locator('.dialog.promotion').waitFor();
      assert.ok(await focusInDialog(page));
      await page.keyboard.press('Escape');
      await page.locator('.dialog.promotion').waitFor({ state: 'detached' });
      assert.equal(await page.locator('.move-list [data-ply]').count(), 0, 'no move was made');
    },
  ),
);

test('moves are said in words in the live region, in the player language', { timeout: TEST_TIMEOUT }, () =>
  withApp({ settings: { lang: 'en', mode: 'hotseat' } }, async (page) => {
    const announced = () => page.locator('[data-testid="announce"]').innerText();
    await drag(page, 'e2', 'e4');
    await waitForPlies(page, 1);
    assert.equal(await announced(), 'White pawn to e4');
    await drag(page, 'd7', 'd5');
    await drag(page, 'e4', 'd5');
    await waitForPlies(page, 3);
    assert.equal(await announced(), 'White pawn takes d5');
    // A refused move is said with its reason.
    await drag(page, 'a8', 'a5');
    await page.waitForFunction(() => /blocks/i.test(document.querySelector('[data-testid="announce"]').innerText));
    // The status is no live region of its own (the engine's figures change there).
    assert.equal(await page.locator('[data-testid="status"][aria-live]').count(), 0);
  }),
);

/** axe-core's serious and critical violations on the page as it is, one line each. */
async function axeViolations(page) {
  await page.evaluate(AXE);
  const results = await page.evaluate(() =>
    window.axe.run(document, { resultTypes: ['violations'] }),
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

test('axe-core: no serious or critical violation in any game, dialog, width or theme', { timeout: TEST_TIMEOUT }, async () => {
  const found = [];
  for (const width of [360, 1280]) {
    for (const theme of ['light', 'dark']) {
      for (const game of ['chess', 'xiangqi', 'banqi', 'gomoku']) {
        await withApp(
          { viewport: { width, height: 800 }, settings: { lang: 'en', game, theme } },
          async (page) => {
            const where = `${game} ${width}px ${theme}`;
            for (const line of await axeViolations(page)) found.push(`${where}: ${line}`);
            // Each dialog open (once per width and theme is enough: they are the same in
            // every game).
            if (game !== 'chess') return;
            for (const [action, selector] of DIALOGS) {
              await page.locator(`[data-action="${action}"]`).first().click();
              await page.locator(selector).waitFor();
              for (const line of await axeViolations(page)) found.push(`${where} ${action}: ${line}`);
              await page.keyboard.press('Escape');
              await page.locator(selector).waitFor({ state: 'detached' });
            }
          },
        );
      }
    }
  }
  assert.deepEqual(found, []);
});

/** Opens `url` in a fresh context of `width` px and the `theme` colour scheme. */
async function openPage(url, width, theme) {
  const context = await browser.newContext({
    viewport: { width, height: 800 },
    locale: 'en-US',
    colorScheme: theme,
  });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  await page.goto(url);
  return { page, close: () => context.close() };
}

test('axe-core: the embed and the online lobby, at 360 and 1280 px, light and dark', { timeout: TEST_TIMEOUT }, async () => {
  const qi = await startQiServer({ tag: 'a11y', pages: ['index.html', 'online/index.html'], readyPath: 'online/' });
  const found = [];
  try {
    for (const width of [360, 1280]) {
      for (const theme of ['light', 'dark']) {
        const pages = [
          ['embed', `${server.url}embed/?game=chess&moves=e2e4+e7e5+g1f3&controls=1&movelist=1&theme=${theme}`, '.embed [data-square]'],
          ['embed xiangqi', `${server.url}embed/?game=xiangqi&moves=h3e3&play=1&theme=${theme}`, '.embed [data-square]'],
          ['lobby', `${qi.base}online/`, '[data-testid="connection"][data-state="connected"]'],
        ];
        for (const [name, url, ready] of pages) {
          const { page, close } = await openPage(url, width, theme);
          try {
            await page.locator(ready).first().waitFor();
            for (const line of await axeViolations(page)) found.push(`${name} ${width}px ${theme}: ${line}`);
            if (!name.startsWith('embed')) continue;
            assert.equal(await page.locator('main').count(), 1, `${name}: one main landmark`);
            assert.equal(await page.locator('h1').count(), 1, `${name}: a heading`);
          } finally {
            await close();
          }
        }
      }
    }
  } finally {
    await qi.stop();
  }
  assert.deepEqual(found, []);
});

test('a chess game played to mate through the screen-reader field alone (sr=1)', { timeout: TEST_TIMEOUT }, () =>
  withApp({ query: '?sr=1', settings: { lang: 'en', mode: 'hotseat', game: 'chess' } }, async (page) => {
    const field = page.locator('[data-testid="sr-input"]');
    const type = async (text) => {
      await field.fill(text);
      await field.press('Enter');
    };
    const announced = () => page.locator('[data-testid="announce"]').innerText();
    for (const [i, move] of ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6'].entries()) {
      await type(move);
      await waitForPlies(page, i + 1);
    }
    assert.equal(await announced(), 'Black knight to f6');
    await type('where queen');
    await page.locator('[data-testid="sr-log"] li', { hasText: 'white queen h5' }).waitFor();
    await type('file f');
    await page.locator('[data-testid="sr-log"] li', { hasText: 'f7 black pawn' }).waitFor();
    // A move that may not be played: its reason is said, nothing is lost.
    await type('Ke3');
    await page.waitForFunction(() => /not|cannot|may/i.test(document.querySelector('[data-testid="announce"]').innerText));
    assert.equal(await page.locator('.move-list [data-ply]').count(), 6);
    await type('Qxf7#');
    await waitForPlies(page, 7);
    assert.match(await announced(), /^White queen takes f7, checkmate\. White wins/);
    // The game-over box takes the focus (its buttons: a new game...); Escape gives it back to
    // the field, for the next command: no mouse needed.
    assert.ok(await focusInDialog(page), 'the game-over box has the focus');
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'sr-input');
  }),
);
