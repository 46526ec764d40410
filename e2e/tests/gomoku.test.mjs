// End-to-end tests of gomoku as its players play it (issue 18): a swap2 opening against the
// computer through its colour choices, caro's closed fives, and the 20x20 board on a phone.

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';

import { click, sharedSetup, statusText, waitForPlies } from '../support.mjs';

const TEST_TIMEOUT = 180_000;
const SHOTS = new URL('../../target/e2e-shots/', import.meta.url);

const shared = sharedSetup({ before, after });
before(() => mkdirSync(SHOTS, { recursive: true }));
const withApp = (options, body) => shared.withApp(options, body);

const plies = (page) => page.locator('.move-list [data-ply]').count();

test('swap2 against the computer: three stones, its choice, and play goes on', { timeout: TEST_TIMEOUT }, () =>
  withApp(
    {
      settings: {
        game: 'gomoku',
        mode: 'computer-second',
        level: 1,
        lang: 'en',
        'rules.gomoku': 'size=15,rule=freestyle,opening=swap2',
      },
    },
    async (page) => {
      // The person (the first player) puts the three opening stones in a row of turns.
      for (const [i, point] of ['h8', 'i9', 'h10'].entries()) {
        await click(page, point);
        await waitForPlies(page, i + 1);
      }
      // The computer answers: a colour, or two more stones and the choice comes back.
      await page.waitForFunction(
        () =>
          document.querySelectorAll('.move-list [data-ply]').length >= 4 ||
          document.querySelector('[data-action="take-black"]'),
        null,
        { timeout: 60_000 },
      );
      // The person's turn: the tab's title says so (or a colour is asked of the person).
      const personsTurn = () =>
        document.title.startsWith('●') || Boolean(document.querySelector('[data-action="take-white"]'));
      await page.waitForFunction(personsTurn, null, { timeout: 60_000 });
      const moves = await page.locator('.move-list [data-ply]').allInnerTexts();
      const fourth = moves[3] ?? '';
      if (await page.locator('[data-action="take-white"]').count()) {
        // Two more stones were put: the person takes white, and so plays the sixth stone.
        assert.equal(moves.length, 5, `two more stones: ${moves}`);
        assert.match(await page.locator('.colour-choice').innerText(), /Choose your colour/);
        await page.screenshot({ path: new URL('swap2-choice.png', SHOTS).pathname });
        await page.locator('[data-action="take-white"]').click();
        await waitForPlies(page, 6);
        assert.equal(await page.locator('.move-list [data-ply="6"]').innerText(), 'Take white');
        assert.match(await statusText(page), /White to move/);
      } else {
        // The choice is a move of its own, in words.
        assert.match(fourth, /^Take (black|white)$/, `the computer's choice: ${moves}`);
        await page.screenshot({ path: new URL('swap2-computer-chose.png', SHOTS).pathname });
      }
      // Whatever came, the game goes on: the person's stone is answered.
      const before = await plies(page);
      const free = ['a1', 'o15', 'a15', 'o1'];
      if (!(await page.locator('[data-action="take-black"]').count())) {
        await page.waitForFunction(personsTurn, null, { timeout: 60_000 });
        const now = await plies(page);
        await click(page, free[0]);
        await waitForPlies(page, now + 2);
        assert.ok((await plies(page)) > before);
      }
      // A colour when none is due: no buttons are offered.
      assert.equal(await page.locator('[data-action="take-black"]').count(), 0);
    },
  ),
);

test('caro: a five closed at both ends wins nothing; an open one wins', { timeout: TEST_TIMEOUT }, () =>
  withApp(
    { settings: { game: 'gomoku', mode: 'hotseat', lang: 'en', 'rules.gomoku': 'size=15,rule=caro' } },
    async (page) => {
      // Black d8-h8 between White's c8 and i8: five, closed at both ends.
      const moves = ['d8', 'c8', 'e8', 'i8', 'f8', 'a1', 'g8', 'a3', 'h8'];
      for (const [i, point] of moves.entries()) {
        await click(page, point);
        await waitForPlies(page, i + 1);
      }
      assert.equal(await page.locator('[data-testid="game-over"]').count(), 0, 'no win');
      assert.match(await statusText(page), /White to move/);
      await page.screenshot({ path: new URL('caro-closed-five.png', SHOTS).pathname });
      // Black d9-h9, open: a win.
      const more = ['a5', 'd9', 'a7', 'e9', 'a9', 'f9', 'a11', 'g9', 'a13', 'h9'];
      for (const [i, point] of more.entries()) {
        await click(page, point);
        await waitForPlies(page, moves.length + i + 1);
      }
      await page.locator('[data-testid="game-over"]').waitFor();
      assert.match(await page.locator('[data-testid="game-over"]').innerText(), /Black wins/);
    },
  ),
);

test('Soosõrv-8 (renju): the opening square, both colour choices, the declaration, offers and the pick', { timeout: TEST_TIMEOUT }, () =>
  withApp(
    {
      settings: {
        game: 'gomoku',
        mode: 'hotseat',
        lang: 'en',
        'rules.gomoku': 'size=15,rule=renju,opening=soosorv8',
      },
    },
    async (page) => {
      // The first stone goes on the centre: a1 is refused with the reason.
      await click(page, 'a1');
      await page.locator('[data-testid="notice"]', { hasText: /Opening stones go on the centre/ }).waitFor();
      assert.equal(await plies(page), 0);
      for (const [i, point] of ['h8', 'i9', 'j10'].entries()) {
        await click(page, point);
        await waitForPlies(page, i + 1);
      }
      await page.locator('[data-action="take-white"]').click();
      await waitForPlies(page, 4);
      await click(page, 'a1');
      await waitForPlies(page, 5);
      // White declares: eight buttons, the status asks.
      assert.equal(await page.locator('[data-action="declare-offers"]').count(), 8);
      assert.match(await statusText(page), /How many fifth stones/);
      await page.locator('[data-action="declare-offers"][data-count="2"]').click();
      await waitForPlies(page, 6);
      assert.equal(await page.locator('.move-list [data-ply="6"]').innerText(), 'fifth stones to offer: 2');
      await page.locator('[data-action="take-black"]').click();
      await waitForPlies(page, 7);
      await click(page, 'g9');
      await waitForPlies(page, 8);
      // i7 mirrors g9: refused, and nothing is lost.
      await click(page, 'i7');
      await page.locator('[data-testid="notice"]', { hasText: /mirror image/ }).waitFor();
      assert.equal(await plies(page), 8);
      await click(page, 'k5');
      await waitForPlies(page, 9);
      assert.match(await statusText(page), /White picks one of the offered fifth stones/);
      assert.equal(await page.locator('[data-offer]').count(), 2);
      assert.equal(
        await page.locator('[data-square="g9"]').getAttribute('aria-label'),
        'g9, offered fifth stone 1',
      );
      await page.screenshot({ path: new URL('soosorv8-offers.png', SHOTS).pathname });
      await click(page, 'k5');
      await waitForPlies(page, 10);
      assert.equal(await page.locator('[data-offer]').count(), 0);
      assert.equal(await page.locator('[data-square="k5"] [data-piece="b"]').count(), 1);
      assert.match(await statusText(page), /White to move/);
    },
  ),
);

test('20×20 on a 360 px phone: every point is there and takes a stone', { timeout: TEST_TIMEOUT }, () =>
  withApp(
    {
      viewport: { width: 360, height: 740 },
      hasTouch: true,
      isMobile: true,
      settings: { game: 'gomoku', mode: 'hotseat', lang: 'vi', 'rules.gomoku': 'size=20,rule=freestyle' },
    },
    async (page) => {
      assert.equal(await page.locator('.board [data-square]').count(), 400);
      // No opening rule: the select says so (the rule list leaves it out).
      assert.equal(await page.locator('select[data-rule="opening"]').inputValue(), 'none');
      const corner = page.locator('.board [data-square="t20"]');
      const box = await corner.boundingBox();
      assert.ok(box && box.x + box.width <= 360, `t20 on screen: ${JSON.stringify(box)}`);
      await page.locator('.board [data-square="t20"]').tap();
      await page.locator('.board [data-square="a1"]').tap();
      await waitForPlies(page, 2);
      await page.screenshot({ path: new URL('gomoku-20-phone.png', SHOTS).pathname, fullPage: true });
      assert.ok(box.width >= 15, `a point is ${box.width} px`);
      // Zoomed: 28 px a point, in a window scrolled to the centre, where a tap puts a stone.
      await page.locator('[data-action="zoom-board"]').tap();
      await page.locator('.board-frame.zoomed').waitFor();
      const centre = page.locator('.board [data-square="j10"]');
      const zoomed = await centre.boundingBox();
      assert.ok(zoomed && zoomed.width >= 24, `a zoomed point is ${zoomed?.width} px`);
      assert.ok(zoomed.x >= 0 && zoomed.x + zoomed.width <= 360, `the centre is in view: ${JSON.stringify(zoomed)}`);
      await centre.tap();
      await waitForPlies(page, 3);
      await page.screenshot({ path: new URL('gomoku-20-phone-zoomed.png', SHOTS).pathname });
      // And back.
      await page.locator('[data-action="zoom-board"]').tap();
      assert.equal(await page.locator('.board-frame.zoomed').count(), 0);
    },
  ),
);
