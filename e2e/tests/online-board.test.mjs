// The board fills its room on the online page: in an online game of gomoku and of xiangqi, the
// board's frame (`.board-frame`) is as wide as its room (`.online-board`, the box between the
// two player bars, less its padding) within 2%, at 1280x800 and 360x640, for the player who
// created the game (while waiting, then playing) and for the one who joined. The Qi server (env
// QI_SERVER_BIN) serves the built pages (QI_DIST); the test fails (never skips) without them.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { WAIT_MS, sharedSetup } from '../support.mjs';

const TEST_TIMEOUT = 120_000;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 360, height: 640 },
];

const setup = sharedSetup({ before, after }, {
  server: 'qi',
  qi: { tag: 'online-board', pages: ['index.html', 'online/index.html'], readyPath: 'online/' },
});

/** The board's frame's width and its room's, measured in the page. */
function boardAgainstRoom() {
  const frame = document.querySelector('.board-frame');
  const room = frame.closest('.online-board');
  const style = getComputedStyle(room);
  const width = room.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return { board: frame.getBoundingClientRect().width, room: width };
}

/** Checks the board of `page` against its room at each size (`who` names it in failures). */
async function checkBoard(page, game, who) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => resolve(true))));
    const { board, room } = await page.evaluate(boardAgainstRoom);
    const where = `${who}'s ${game} board at ${size.width}x${size.height}`;
    // The room itself is the page's: the width, or the height left by the bars (10rem).
    const least = 0.8 * Math.min(size.width, (size.height - 160) * (game === 'xiangqi' ? 0.9 : 1));
    assert.ok(room >= least, `${where}: the room is ${Math.round(room)} px, under ${Math.round(least)} px`);
    assert.ok(Math.abs(board - room) <= room * 0.02, `${where}: ${Math.round(board)} px wide in a room of ${Math.round(room)} px`);
    await page.screenshot({ path: `/tmp/qi-online-board-${game}-${who}-${size.width}.png` });
  }
}

for (const game of ['gomoku', 'xiangqi']) {
  test(`the ${game} board fills its room on the online page at 1280x800 and 360x640`, { timeout: TEST_TIMEOUT }, async () => {
    const people = [];
    const open = async (url, viewport) => {
      const context = await setup.browser.newContext({ viewport, locale: 'en-US' });
      context.setDefaultTimeout(WAIT_MS);
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      people.push({ context, errors });
      await page.goto(url);
      await page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
      return page;
    };
    try {
      // Ann creates the game by invite, on a desktop; her board shows while she waits.
      const ann = await open(`${setup.qi.base}online/`, SIZES[0]);
      await ann.locator('[data-testid="name"]').fill('Ann');
      await ann.locator(`[data-testid="lobby"] [data-game="${game}"]`).click();
      await ann.locator('[data-testid="listed"]').selectOption('invite');
      await ann.locator('[data-action="create"]').click();
      await ann.locator(`main.play[data-current-game="${game}"] .board [data-square]`).first().waitFor();
      const invite = await ann.locator('[data-testid="invite-link"]').inputValue();
      await checkBoard(ann, game, 'waiting');
      // Bo joins on a phone; both play on.
      const bo = await open(invite, SIZES[1]);
      await bo.locator('[data-testid="name"]').fill('Bo');
      await bo.locator('[data-action="join"]').click();
      await bo.locator(`main.play[data-current-game="${game}"] .board [data-square]`).first().waitFor();
      await ann.locator('main.play .player-name', { hasText: 'Bo' }).waitFor();
      await checkBoard(bo, game, 'joined');
      await checkBoard(ann, game, 'creator');
      for (const someone of people) assert.deepEqual(someone.errors, []);
    } finally {
      for (const someone of people) await someone.context.close();
    }
  });
}
