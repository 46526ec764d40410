// Every board fills its room, whatever was on screen before it: in the app after a drag in
// another game (a switch reuses the page's elements), at a desktop's and a phone's size, and in
// embeds of 200, 400 and 800 px, opened directly and through the app's `?embed=1`. A board
// that fills its room is as wide as the room allows or as tall as the window allows, less the
// frame's own border; the check is against those sizes, measured in the page, not a fixed
// number of pixels.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { drag, openApp, sharedSetup } from '../support.mjs';

const TEST_TIMEOUT = 120_000;
const GAMES = ['chess', 'xiangqi', 'banqi', 'gomoku'];
/** Each board's width over its height (xiangqi's is taller than wide; banqi's twice as wide). */
const files = (game) => ({ chess: 1, xiangqi: 0.9, banqi: 2, gomoku: 1 })[game];
const setup = sharedSetup({ before, after });

/**
 * The board's size against its room, measured in the page: `board` is the board's frame's
 * width, `room` the width it could take — its area's width, or the window's height less
 * `heightLeft` px times the board's shape, whichever is less (the CSS's own rule).
 */
function boardAgainstRoom(heightLeft) {
  const frame = document.querySelector('.board-frame');
  // The room the page gives its board, less its padding: the app's board area, the embed's
  // board box, the online page's board between the player bars.
  const area = frame.closest('.board-area, .embed-board, .online-board');
  const areaStyle = getComputedStyle(area);
  const holder = {
    width: area.getBoundingClientRect().width - parseFloat(areaStyle.paddingLeft) - parseFloat(areaStyle.paddingRight),
  };
  const style = getComputedStyle(frame);
  const files = Number(style.getPropertyValue('--files'));
  const ranks = Number(style.getPropertyValue('--ranks'));
  const tallest = (innerHeight - heightLeft) * (files / ranks);
  return {
    board: Math.round(frame.getBoundingClientRect().width),
    room: Math.round(Math.min(holder.width, tallest)),
  };
}

for (const [width, height] of [[1280, 800], [360, 640]]) {
  for (const game of GAMES) {
    test(`the ${game} board fills its room at ${width}x${height} after a drag in another game`, { timeout: TEST_TIMEOUT }, async () => {
      const first = game === 'chess' ? 'xiangqi' : 'chess';
      const app = await openApp(setup.browser, setup.server.url, { viewport: { width, height }, settings: { game: first } });
      try {
        const { page } = app;
        // A drag sizes the dragged piece's ghost to a square: the next board must not inherit it.
        if (first === 'chess') await drag(page, 'e2', 'e4');
        else await drag(page, 'h3', 'e3');
        await page.locator('.move-list .move').first().waitFor();
        await page.locator(`button[data-game="${game}"]`).click();
        await page.locator(`.app[data-current-game="${game}"] .board [data-square]`).first().waitFor();
        // The app's frame is at most the window's height less 6rem (96 px) high.
        const { board, room } = await page.evaluate(boardAgainstRoom, 96);
        // And the room is the board area's: on a phone the screen's width, on a desktop at
        // least half of it beside the side panel (or the window's height, for a tall board).
        const widest = width < 700 ? width * 0.9 : width * 0.5;
        const least = Math.min(widest, (height - 96) * files(game)) * 0.9;
        assert.ok(room >= least, `the ${game} board's room is ${room} px, under ${Math.round(least)} px`);
        assert.ok(board >= room * 0.98, `the ${game} board is ${board} px wide in a room of ${room} px`);
        assert.deepEqual(app.errors, []);
      } finally {
        await app.close();
      }
    });
  }
}

for (const size of [200, 400, 800]) {
  for (const [door, path] of [['embed page', 'embed/?'], ['app link with embed=1', '?embed=1&']]) {
    test(`every board fills a ${size} px embed opened through the ${door}`, { timeout: TEST_TIMEOUT }, async () => {
      const context = await setup.browser.newContext({ viewport: { width: size, height: size } });
      try {
        const page = await context.newPage();
        const problems = [];
        for (const game of GAMES) {
          await page.goto(`${setup.server.url}${path}game=${game}`);
          await page.locator(`.embed[data-current-game="${game}"] .board [data-square]`).first().waitFor();
          // The embed leaves the board the frame's height less its 0.5rem of chrome (8 px).
          const { board, room } = await page.evaluate(boardAgainstRoom, 8);
          // And the room itself is the frame less the 0.25rem of padding around the board.
          if (room < size * Math.min(1, files(game)) * 0.9 || board < room * 0.98) problems.push(`${game}: ${board} px wide in a room of ${room} px (${size} px frame)`);
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
}
