// Every choice's text fits its control, in each language, at phone and desktop widths: a
// select shows its chosen option whole, and no button or tab cuts its label.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { openApp, sharedSetup } from '../support.mjs';

const TEST_TIMEOUT = 120_000;
const setup = sharedSetup({ before, after });

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
      const app = await openApp(setup.browser, setup.server.url, {
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

/** How the new-game dialog sits on the screen: whether it needs scrolling, and whether the
 * Play button is wholly on screen. */
function dialogFit() {
  const dialog = document.querySelector('.dialog.new-game');
  const play = dialog.querySelector('[data-action="start-game"]').getBoundingClientRect();
  const box = dialog.getBoundingClientRect();
  return {
    scrolls: dialog.scrollHeight > dialog.clientHeight + 1,
    onScreen: box.top >= 0 && box.bottom <= innerHeight && play.bottom <= innerHeight,
    height: Math.round(dialog.scrollHeight),
  };
}

// The new-game dialog: every choice of every game (the opponent, level, rules, clock with a
// custom base and increment) fits a 360 × 640 phone screen whole, in each language.
for (const lang of ['en', 'zh', 'vi']) {
  test(`the new-game dialog fits a 360 × 640 screen in ${lang}`, { timeout: TEST_TIMEOUT }, async () => {
    const app = await openApp(setup.browser, setup.server.url, {
      viewport: { width: 360, height: 640 },
      settings: { game: 'chess', mode: 'computer-second', level: 2, lang },
    });
    try {
      const page = app.page;
      await page.locator('.board [data-square]').first().waitFor();
      await page.locator('[data-action="new-game"]').click();
      const dialog = page.locator('.dialog.new-game');
      await dialog.waitFor();
      // The custom clock shows its two extra fields: the tallest form of the dialog.
      await dialog.locator('select[data-setting="clock"]').selectOption('custom');
      await dialog.locator('input[data-setting="clock-minutes"]').waitFor();
      const problems = [];
      for (const game of ['chess', 'xiangqi', 'banqi', 'gomoku']) {
        await dialog.locator(`button[data-new-game="${game}"][aria-pressed]`).click();
        await dialog.locator(`button[data-new-game="${game}"][aria-pressed="true"]`).waitFor();
        const fit = await page.evaluate(dialogFit);
        if (fit.scrolls || !fit.onScreen) problems.push(`${game}: ${JSON.stringify(fit)}`);
        problems.push(...(await page.evaluate(clipped)).map((p) => `${game}: ${p}`));
      }
      assert.deepEqual(problems, []);
    } finally {
      await app.close();
    }
  });
}
