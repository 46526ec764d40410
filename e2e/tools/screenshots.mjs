// Saves screenshots of each game, mid-game, at 360 px and 1280 px wide, plus the dark theme,
// a finished game's overlay, the promotion dialog and the pages' loading state and failure
// message, and the puzzle page (each game, a wrong move answered, Streak, Storm, the dashboard,
// the embed), into e2e/artifacts/. Not a test: look at the pictures. Run:
// `node e2e/tools/screenshots.mjs` (env QI_DIST = the built dist directory; QI_SHOTS=puzzles
// for the puzzle page's alone).
// It prints, per picture, whether the page is wider than the window (horizontal overflow).

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { DIST, click, drag, launchBrowser, openApp, startServer, waitForPiece } from '../support.mjs';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

const WIDTHS = [
  { name: '360', viewport: { width: 360, height: 740 } },
  { name: '1280', viewport: { width: 1280, height: 800 } },
];

// A few moves into each game (checked with `qi play`), so the boards are not empty.
const GAMES = {
  chess: { start: 'startpos:0', moves: ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'f8c5', 'c2c3', 'g8f6'] },
  xiangqi: {
    start: 'startpos:0',
    moves: ['h3e3', 'h10g8', 'h1g3', 'i10h10', 'i1h1', 'b10c8', 'g4g5', 'c7c6'],
  },
  banqi: { start: 'startpos:7', moves: ['d4', 'd3', 'd4xd3', 'e3', 'c4', 'a1', 'h4', 'b2', 'g3', 'f2'] },
  gomoku: { start: 'startpos:0', moves: ['h8', 'h9', 'i8', 'g7', 'j9', 'i10', 'g9', 'f10', 'j7', 'k6'] },
};

async function shoot(page, file) {
  const overflow = await page.evaluate(() => {
    const root = document.documentElement;
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 1)
      .map((e) => {
        const classes = String(e.getAttribute('class') || '').trim();
        return e.tagName.toLowerCase() + (classes ? `.${classes.split(/\s+/).join('.')}` : '');
      })
      .slice(0, 5);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
  });
  const target = path.join(OUT, file);
  await page.screenshot({ path: target, fullPage: true });
  const note =
    overflow.scrollWidth > overflow.clientWidth
      ? `  OVERFLOW: page ${overflow.scrollWidth}px > window ${overflow.clientWidth}px; e.g. ${overflow.wide.join(', ')}`
      : '';
  console.log(`${target}${note}`);
}

/**
 * The loading state of a page (`state` 'loading': its wasm held back) or its failure message
 * ('failed': the wasm refused), in the light theme or a dark one (saved in the settings for the
 * app, `theme=dark` in the embed's address).
 */
async function shootLoading(browser, url, { viewport, theme, state, embed, file }) {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  if (theme === 'dark' && !embed) {
    await context.addInitScript(() => localStorage.setItem('qi.settings', 'theme=dark'));
  }
  const page = await context.newPage();
  // Held back: the request is never answered (until the context closes).
  await page.route(/\.wasm$/, (route) => (state === 'failed' ? route.abort('failed') : undefined));
  const address = embed ? `${url}embed/?game=xiangqi${theme === 'dark' ? '&theme=dark' : ''}` : url;
  await page.goto(address, { waitUntil: 'domcontentloaded' });
  await page.locator(state === 'failed' ? '#qi-loading[data-state="failed"]' : '#qi-loading').waitFor();
  await shoot(page, file);
  await context.close();
}

/** The puzzle page: each game's puzzle, a wrong move and its answer, Streak, Storm, the dashboard and the embed. */
async function puzzleShots(browser, server) {
  for (const { name, viewport } of WIDTHS) {
    for (const [game, lang] of [['chess', 'en'], ['xiangqi', 'zh-CN'], ['gomoku', 'vi']]) {
      const app = await openApp(browser, `${server.url}puzzles/?game=${game}`, { viewport, settings: lang === 'en' ? {} : { lang } });
      await app.page.locator(game === 'banqi' ? '[data-testid="puzzle-notice"]' : '[data-testid="puzzle-status"]').waitFor();
      await shoot(app.page, `puzzles-${game}-${name}.png`);
      if (game === 'chess') {
        // A wrong move: any legal move of the solver's that is not the first of the solution.
        await app.page.locator('[data-action="hint"]').click();
        await shoot(app.page, `puzzles-hint-${name}.png`);
        await app.page.locator('[data-action="solution"]').click();
        await app.page.waitForTimeout(600);
        await shoot(app.page, `puzzles-solution-${name}.png`);
        await app.page.locator('[data-action="share-puzzle"]').click();
        await shoot(app.page, `puzzles-share-${name}.png`);
        await app.page.locator('[data-mode="streak"]').click();
        await app.page.locator('[data-testid="streak"]').waitFor();
        await shoot(app.page, `puzzles-streak-${name}.png`);
        await app.page.locator('[data-mode="storm"]').click();
        await app.page.locator('[data-action="start-storm"]').click();
        await app.page.locator('[data-testid="storm-clock"]').waitFor();
        await shoot(app.page, `puzzles-storm-${name}.png`);
        await app.page.locator('[data-mode="dashboard"]').click();
        await shoot(app.page, `puzzles-dashboard-${name}.png`);
      }
      await app.close();
    }
  }
  const row = encodeURIComponent('00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2,,');
  for (const [lang, viewport] of [['vi', { width: 400, height: 520 }], ['en', { width: 300, height: 420 }]]) {
    const embed = await openApp(browser, `${server.url}puzzles/?puzzle=chess:00sHx&row=${row}&embed=1&lang=${lang}`, { viewport });
    await embed.page.locator('[data-testid="puzzle-status"]').waitFor();
    await click(embed.page, 'h2');
    await click(embed.page, 'h3');
    await embed.page.locator('[data-testid="puzzle-status"][data-state="failed"]').waitFor();
    await embed.page.waitForTimeout(2500);
    await shoot(embed.page, `puzzles-embed-${lang}-${viewport.width}.png`);
    await embed.close();
  }
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const server = await startServer(DIST);
  const browser = await launchBrowser();
  if (process.env.QI_SHOTS === 'puzzles') {
    try {
      await puzzleShots(browser, server);
    } finally {
      await browser.close();
      await server.close();
    }
    return;
  }
  try {
    await puzzleShots(browser, server);
    for (const { name, viewport } of WIDTHS) {
      // Every game in every language (English without a suffix).
      for (const lang of ['en', 'zh-CN', 'vi']) {
        for (const [game, { start, moves }] of Object.entries(GAMES)) {
          const settings = lang === 'en' ? {} : { lang };
          const app = await openApp(browser, server.url, { viewport, preset: { game, start, moves, settings } });
          await shoot(app.page, `${game}${lang === 'en' ? '' : `-${lang}`}-${name}.png`);
          await app.close();
        }
      }
      // The new-game dialog, Vietnamese (the longest words), with a custom clock.
      const dialog = await openApp(browser, server.url, { viewport, preset: { game: 'banqi', ...GAMES.banqi, settings: { lang: 'vi' } } });
      await dialog.page.locator('[data-action="new-game"]').click();
      await dialog.page.locator('.dialog.new-game select[data-setting="clock"]').selectOption('custom');
      await shoot(dialog.page, `new-game-vi-${name}.png`);
      await dialog.close();
      // A finished game with its overlay (gomoku, five in a row).
      const over = await openApp(browser, server.url, {
        viewport,
        preset: { game: 'gomoku', start: 'startpos:0', moves: ['h8', 'h9', 'i8', 'i9', 'j8', 'j9', 'k8', 'k9'] },
      });
      await click(over.page, 'l8');
      await over.page.locator('[data-testid="game-over"]').waitFor();
      await shoot(over.page, `gomoku-over-${name}.png`);
      await over.close();
      // The promotion dialog.
      const promo = await openApp(browser, server.url, {
        viewport,
        preset: { game: 'chess', start: '4k3/P7/8/8/8/8/8/4K3 w - - 0 1', moves: [] },
      });
      await drag(promo.page, 'a7', 'a8');
      await promo.page.locator('[data-promotion="q"]').waitFor();
      await shoot(promo.page, `promotion-${name}.png`);
      await promo.close();
    }
    // The dark theme, once per width for xiangqi, and a selected piece with its hints.
    for (const { name, viewport } of WIDTHS) {
      const dark = await openApp(browser, server.url, {
        viewport,
        colorScheme: 'dark',
        preset: { game: 'xiangqi', ...GAMES.xiangqi, settings: { theme: 'dark' } },
      });
      await click(dark.page, 'e3');
      await dark.page.locator('[data-hint]').first().waitFor();
      await shoot(dark.page, `xiangqi-dark-${name}.png`);
      await dark.close();
    }
    // Chinese and Vietnamese text at 360 px (longer words, other scripts).
    for (const lang of ['zh-CN', 'vi']) {
      const app = await openApp(browser, server.url, {
        viewport: WIDTHS[0].viewport,
        preset: { game: 'banqi', ...GAMES.banqi, settings: { lang } },
      });
      await waitForPiece(app.page, 'd3', 'rR');
      await shoot(app.page, `banqi-${lang}-360.png`);
      await app.close();
    }
    // The loading state and its failure message, at both widths, light and dark, and the
    // embed's in a small frame.
    for (const { name, viewport } of WIDTHS) {
      for (const theme of ['light', 'dark']) {
        for (const state of ['loading', 'failed']) {
          await shootLoading(browser, server.url, { viewport, theme, state, file: `${state}-${theme}-${name}.png` });
        }
      }
    }
    for (const theme of ['light', 'dark']) {
      for (const state of ['loading', 'failed']) {
        const viewport = { width: 300, height: 300 };
        await shootLoading(browser, server.url, { viewport, theme, state, embed: true, file: `embed-${state}-${theme}-300.png` });
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
