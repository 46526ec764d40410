// Every choice's text fits its control, in each language, at phone and desktop widths: a
// select shows its chosen option whole, and no button or tab cuts its label.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launchBrowser, openApp, startServer } from './support.mjs';

const TEST_TIMEOUT = 120_000;
let browser;
let server;
before(async () => {
  browser = await launchBrowser();
  server = await startServer();
});
after(async () => {
  await server?.close();
  await browser?.close();
});

/** The controls whose text does not fit, as `tag "text" (needed > available px)`. */
function clipped() {
  const canvas = document.createElement('canvas').getContext('2d');
  const out = [];
  for (const select of document.querySelectorAll('select')) {
    if (!select.offsetParent) continue;
    const style = getComputedStyle(select);
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = select.options[select.selectedIndex]?.text ?? '';
    const needed = canvas.measureText(text).width;
    // The box less its padding, border and the drop-down arrow (about 20 px in Chromium).
    const available = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    if (needed > available + 1) out.push(`select[${select.dataset.setting ?? ''}] "${text}" (${Math.round(needed)} > ${Math.round(available)} px)`);
  }
  for (const element of document.querySelectorAll('button, .game-tab, .result, .to-move')) {
    if (!element.offsetParent) continue;
    if (element.scrollWidth > element.clientWidth + 1) {
      out.push(`${element.tagName.toLowerCase()} "${element.textContent.trim()}" (${element.scrollWidth} > ${element.clientWidth} px)`);
    }
  }
  return out;
}

for (const lang of ['en', 'zh', 'vi']) {
  for (const width of [320, 360, 1280]) {
    test(`every choice fits at ${width} px in ${lang}`, { timeout: TEST_TIMEOUT }, async () => {
      // Against the computer, so the longest "Players" choice and the level are shown.
      const app = await openApp(browser, server.url, {
        viewport: { width, height: 900 },
        settings: { game: 'chess', mode: 'computer-second', level: 2, lang },
      });
      try {
        await app.page.locator('.board [data-square]').first().waitFor();
        const problems = [];
        for (const game of ['chess', 'xiangqi', 'banqi', 'gomoku']) {
          await app.page.locator(`button[data-game="${game}"]`).click();
          await app.page.locator(`.app[data-current-game="${game}"]`).waitFor();
          problems.push(...(await app.page.evaluate(clipped)).map((p) => `${game}: ${p}`));
        }
        assert.deepEqual(problems, []);
      } finally {
        await app.close();
      }
    });
  }
}
