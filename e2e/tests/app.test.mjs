// End-to-end tests of the built app in headless Chromium: real pointer, mouse and keyboard
// input on the page as served from a sub-path. Run: `node --test e2e/tests/` (env QI_DIST = the
// built dist directory, default <repo>/dist).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
  WAIT_MS,
  click,
  drag,
  moveList,
  openApp,
  pieceAt,
  result,
  sharedSetup,
  square,
  statusText,
  waitForPiece,
  waitForPlies,
} from '../support.mjs';

const TEST_TIMEOUT = 180_000;

const setup = sharedSetup({ before, after });

const { withApp } = setup;

/** Picks a game with the game picker and waits for its board. */
async function pickGame(page, game, cells) {
  await page.locator(`button[data-game="${game}"]`).click();
  await page.locator(`.app[data-current-game="${game}"]`).waitFor();
  await page.waitForFunction(
    (n) => document.querySelectorAll('.board [data-square]').length === n,
    cells,
    { timeout: WAIT_MS },
  );
}

/** Plays `[from, to, code]` moves by dragging, waiting for each piece to land. */
async function dragMoves(page, moves) {
  let plies = (await moveList(page)).length;
  for (const [from, to, code] of moves) {
    await drag(page, from, to);
    await waitForPiece(page, to, code);
    plies += 1;
    await waitForPlies(page, plies);
  }
}

const statusResult = (page, code) =>
  page.locator(`[data-testid="status"] [data-result="${code}"]`).waitFor();

test('chess: scholar\'s mate by drag and drop', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    assert.match(await statusText(page), /White to move/);
    await dragMoves(page, [
      ['e2', 'e4', 'wP'],
      ['e7', 'e5', 'bP'],
      ['f1', 'c4', 'wB'],
      ['b8', 'c6', 'bN'],
      ['d1', 'h5', 'wQ'],
      ['g8', 'f6', 'bN'],
      ['h5', 'f7', 'wQ'],
    ]);
    await statusResult(page, 'white');
    assert.equal(await result(page), 'white');
    // A static host: no "watch live" corner (it needs the Qi server), and nothing asked for it.
    assert.equal(await page.locator('[data-testid="watch-corner"]').count(), 0);
    const overlay = page.locator('[data-testid="game-over"]');
    await overlay.waitFor({ state: 'visible' });
    // The result card sits beside or below the board, never over a square of it.
    const card = await overlay.boundingBox();
    const board = await page.locator('.board').boundingBox();
    const apart = card.y >= board.y + board.height - 0.5 || card.x >= board.x + board.width - 0.5
      || card.y + card.height <= board.y + 0.5 || card.x + card.width <= board.x + 0.5;
    assert.ok(apart, `the result card ${JSON.stringify(card)} covers the board ${JSON.stringify(board)}`);
    assert.equal(await overlay.locator('[data-result]').getAttribute('data-result'), 'white');
    assert.match(await overlay.textContent(), /White wins/);
    // Analysis is offered at the end: the final position is mate.
    await overlay.locator('[data-action="overlay-analyse"]').click();
    await page.locator('[data-testid="analysis"]').waitFor();
    await overlay.waitFor({ state: 'detached' });
    const moves = await moveList(page);
    assert.deepEqual(moves, ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#']);
    assert.equal(await pieceAt(page, 'f7'), 'wQ');
    assert.equal(await pieceAt(page, 'h5'), null);
    assert.equal(await square(page, 'f7').getAttribute('data-last-move'), 'true');
    assert.equal(await square(page, 'h5').getAttribute('data-last-move'), 'true');
  }));

test('chess: fool\'s mate by clicks, with move hints', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    const moves = [
      ['f2', 'f3', 'wP'],
      ['e7', 'e5', 'bP'],
      ['g2', 'g4', 'wP'],
      ['d8', 'h4', 'bQ'],
    ];
    for (const [i, [from, to, code]] of moves.entries()) {
      assert.equal(await page.locator('[data-hint]').count(), 0, 'no hints before selecting');
      await click(page, from);
      await page.locator(`[data-square="${to}"][data-hint]`).waitFor();
      assert.equal(await square(page, from).getAttribute('aria-selected'), 'true');
      await click(page, to);
      await waitForPiece(page, to, code);
      await waitForPiece(page, from, null);
      await waitForPlies(page, i + 1);
    }
    await statusResult(page, 'black');
    assert.equal(await result(page), 'black');
    await page.locator('[data-testid="game-over"] [data-result="black"]').waitFor();
    assert.deepEqual(await moveList(page), ['f3', 'e5', 'g4', 'Qh4#']);
    assert.equal(await page.locator('[data-hint]').count(), 0);
    // The board takes no more moves.
    await page.locator('.board-frame.locked').waitFor();
  }));

test('xiangqi: refused moves stay put and say why', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    await pickGame(page, 'xiangqi', 90);
    // The lines under the points span the whole board (9 x 10 cells, crossings at the centres).
    const lines = await page.evaluate(() => {
      const svg = document.querySelector('svg.underlay');
      const ends = [...svg.querySelectorAll('line')].flatMap((l) => [
        [+l.getAttribute('x1'), +l.getAttribute('y1')],
        [+l.getAttribute('x2'), +l.getAttribute('y2')],
      ]);
      return {
        viewBox: svg.getAttribute('viewBox'),
        x: [Math.min(...ends.map((e) => e[0])), Math.max(...ends.map((e) => e[0]))],
        y: [Math.min(...ends.map((e) => e[1])), Math.max(...ends.map((e) => e[1]))],
      };
    });
    assert.deepEqual(lines, { viewBox: '0 0 9 10', x: [0.5, 8.5], y: [0.5, 9.5] });
    const notice = page.locator('[data-testid="notice"]');
    const refused = async (from, to, code, words) => {
      const plies = (await moveList(page)).length;
      const toMove = page.locator('[data-testid="status"] .to-move');
      const before = await toMove.textContent();
      await drag(page, from, to);
      await notice.waitFor();
      const text = await notice.textContent();
      for (const word of words) assert.match(text, word, `notice for ${from}-${to}: ${text}`);
      assert.equal(await pieceAt(page, from), code, `${from} keeps its piece`);
      assert.equal((await moveList(page)).length, plies, 'no move was made');
      assert.equal(await toMove.textContent(), before, 'the same side is still to move');
    };

    // The horse's leg (c1, the elephant) is blocked.
    await refused('b1', 'd2', 'rN', [/leg/i, /horse/i]);
    assert.equal(await pieceAt(page, 'd2'), null);
    assert.match(await statusText(page), /Red to move/);

    // A soldier may not step back.
    await refused('a4', 'a3', 'rP', [/soldier/i, /backwards/i]);
    assert.equal(await pieceAt(page, 'a3'), null);

    // A legal move clears the notice; then the elephant may not cross the river.
    await dragMoves(page, [
      ['c1', 'e3', 'rB'],
      ['h10', 'g8', 'bN'],
      ['e3', 'c5', 'rB'],
      ['g8', 'h10', 'bN'],
    ]);
    assert.equal(await notice.count(), 0, 'a legal move clears the notice');
    await refused('c5', 'e7', 'rB', [/elephant/i, /river/i]);
    assert.equal(await pieceAt(page, 'e7'), 'bP', 'the black soldier is still on e7');
    assert.equal((await moveList(page)).length, 4);
  }));

test('banqi: flip, move and capture in a known deal', { timeout: TEST_TIMEOUT }, () =>
  // Deal 7 (`qi play banqi startpos:7 ...`): the first player flips d4 (red chariot, so plays
  // red), the second flips d3 (black soldier), the chariot takes it (d4 is now empty), the
  // second flips e3 (a black elephant, next to the chariot). Red to move.
  withApp(
    { preset: { game: 'banqi', start: 'startpos:7', moves: ['d4', 'd3', 'd4xd3', 'e3'] } },
    async (page) => {
      assert.equal(await pieceAt(page, 'd3'), 'rR');
      assert.equal(await pieceAt(page, 'e3'), 'bB');
      assert.equal(await pieceAt(page, 'c4'), '?');
      assert.equal(await pieceAt(page, 'd4'), null);
      assert.match(await statusText(page), /Red to move/);

      // Red flips c4: a red soldier.
      await click(page, 'c4');
      await waitForPiece(page, 'c4', 'rP');
      await waitForPlies(page, 5);
      assert.match(await statusText(page), /Black to move/);
      // The move list writes a flip as its square, as records do, and shows what came up,
      // drawn as on the board and named for screen readers.
      assert.deepEqual(await moveList(page), ['d4', 'd3', 'd4xd3', 'e3', 'c4']);
      const turnedUp = async (ply) => {
        const mark = page.locator(`.moves .move[data-ply="${ply}"] .turned-up`);
        if ((await mark.count()) === 0) return null;
        const box = await mark.locator('svg').boundingBox();
        assert.ok(box && box.width >= 12 && box.height >= 12, `ply ${ply}: a readable piece, ${JSON.stringify(box)}`);
        return mark.getAttribute('aria-label');
      };
      assert.match(await turnedUp(1), /red chariot/);
      assert.match(await turnedUp(2), /black soldier/);
      assert.equal(await turnedUp(3), null, 'a capture turns nothing up');
      assert.match(await turnedUp(4), /black elephant/);
      assert.match(await turnedUp(5), /red soldier/);

      // Black's elephant takes the red chariot (click, hint, click).
      await click(page, 'e3');
      await page.locator('[data-square="d3"][data-hint]').waitFor();
      await click(page, 'd3');
      await waitForPiece(page, 'd3', 'bB');
      await waitForPiece(page, 'e3', null);
      await waitForPlies(page, 6);

      // Red's new soldier steps into the empty d4 (drag).
      await drag(page, 'c4', 'd4');
      await waitForPiece(page, 'd4', 'rP');
      await waitForPiece(page, 'c4', null);
      await waitForPlies(page, 7);
      assert.equal(await result(page), null);
      assert.equal(await page.locator('.board .piece[data-piece="rR"]').count(), 0, 'the chariot was taken');
    },
  ));

test('gomoku: five in a row by clicks, highlighted, then undone', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    await pickGame(page, 'gomoku', 225);
    const black = ['h8', 'i8', 'j8', 'k8', 'l8'];
    const white = ['h9', 'i9', 'j9', 'k9'];
    for (let i = 0; i < black.length; i += 1) {
      await click(page, black[i]);
      await waitForPiece(page, black[i], 'b');
      if (i < white.length) {
        await click(page, white[i]);
        await waitForPiece(page, white[i], 'w');
      }
    }
    await waitForPlies(page, 9);
    await statusResult(page, 'black');
    const winning = await page
      .locator('[data-square].winning')
      .evaluateAll((cells) => cells.map((c) => c.dataset.square).sort());
    assert.deepEqual(winning, [...black].sort());
    const overlay = page.locator('[data-testid="game-over"]');
    await overlay.waitFor({ state: 'visible' });
    await overlay.locator('[data-action="overlay-close"]').click();
    await overlay.waitFor({ state: 'detached' });
    assert.equal(await result(page), 'black', 'closing the overlay keeps the result');

    await page.locator('[data-action="undo"]').click();
    await waitForPiece(page, 'l8', null);
    await waitForPlies(page, 8);
    assert.equal(await result(page), null);
    assert.equal(await page.locator('.winning').count(), 0);
    assert.match(await statusText(page), /Black to move/);
    assert.equal(await pieceAt(page, 'k8'), 'b');
    assert.equal(await pieceAt(page, 'k9'), 'w');
  }));

test('chess: promotion by drag, choosing a knight', { timeout: TEST_TIMEOUT }, () =>
  withApp(
    { preset: { game: 'chess', start: '4k3/P7/8/8/8/8/8/4K3 w - - 0 1', moves: [] } },
    async (page) => {
      assert.equal(await pieceAt(page, 'a7'), 'wP');
      await drag(page, 'a7', 'a8');
      const dialog = page.locator('.dialog.promotion');
      await dialog.waitFor({ state: 'visible' });
      assert.deepEqual(
        await dialog.locator('[data-promotion]').evaluateAll((b) => b.map((x) => x.dataset.promotion)),
        ['q', 'r', 'b', 'n'],
      );
      assert.equal((await moveList(page)).length, 0, 'nothing is played before the choice');
      await dialog.locator('[data-promotion="n"]').click();
      await page.locator('[data-square="a8"] [data-piece="wN"]').waitFor();
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await pieceAt(page, 'a7'), null);
      assert.deepEqual(await moveList(page), ['a8=N']);
      // King and knight against king: a draw by insufficient material.
      await statusResult(page, 'draw');
    },
  ));

test('chess: one move from the keyboard', { timeout: TEST_TIMEOUT }, async () =>
  withApp({}, async (page) => {
    // Tab into the board: its roving focus starts on the bottom-left cell.
    let focused = null;
    for (let i = 0; i < 30 && !focused; i += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.dataset?.square ?? null);
    }
    assert.equal(focused, 'a1', 'Tab reaches the board at a1');
    const active = () => page.evaluate(() => document.activeElement?.dataset?.square ?? null);
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction(() => document.activeElement?.dataset?.square === 'e2');
    await page.keyboard.press('Enter');
    await page.locator('[data-square="e4"][data-hint]').waitFor();
    assert.equal(await square(page, 'e2').getAttribute('aria-selected'), 'true');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction(() => document.activeElement?.dataset?.square === 'e4');
    await page.keyboard.press('Enter');
    await waitForPiece(page, 'e4', 'wP');
    await waitForPiece(page, 'e2', null);
    assert.deepEqual(await moveList(page), ['e4']);
    assert.match(await statusText(page), /Black to move/);
    assert.equal(await active(), 'e4', 'the focus stays on the board');
  }));

test('every language renders the status', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    const language = page.locator('select[data-setting="language"]');
    const status = page.locator('[data-testid="status"]');
    for (const [tag, words] of [
      ['zh-CN', '轮到'],
      ['vi', 'Đến lượt'],
      ['en', 'to move'],
    ]) {
      await language.selectOption(tag);
      await status.filter({ hasText: words }).waitFor();
      assert.ok((await statusText(page)).includes(words), `${tag}: ${await statusText(page)}`);
      assert.equal(await page.locator('html').getAttribute('lang'), tag);
    }
    assert.match(await statusText(page), /White to move/);
  }));

test('?game=xiangqi opens xiangqi; a rule choice survives a reload', { timeout: TEST_TIMEOUT }, async () => {
  await withApp({ query: '?game=xiangqi' }, async (page) => {
    assert.equal(await page.locator('.app').getAttribute('data-current-game'), 'xiangqi');
    assert.equal(await page.locator('.board [data-square]').count(), 90);
    assert.equal(await pieceAt(page, 'e1'), 'rK');
    assert.equal(await pieceAt(page, 'e10'), 'bK');
  });
  await withApp({}, async (page) => {
    await pickGame(page, 'gomoku', 225);
    const rule = page.locator('select[data-rule="rule"]');
    assert.equal(await rule.inputValue(), 'freestyle');
    await rule.selectOption('renju');
    await page.waitForFunction(() => localStorage.getItem('qi.settings')?.includes('rule=renju'));
    await page.reload();
    await page.locator('.board [data-square]').first().waitFor();
    assert.equal(await page.locator('.app').getAttribute('data-current-game'), 'gomoku');
    assert.equal(await page.locator('select[data-rule="rule"]').inputValue(), 'renju');
    assert.equal(await page.locator('.board [data-square]').count(), 225);
  });
});

test('switching games and back goes on with each game left unfinished', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    await dragMoves(page, [['e2', 'e4', 'wP']]);
    await waitForPlies(page, 1);
    await pickGame(page, 'xiangqi', 90);
    await waitForPlies(page, 0);
    await dragMoves(page, [['h3', 'e3', 'rC']]);
    await pickGame(page, 'chess', 64);
    await waitForPlies(page, 1);
    assert.equal(await pieceAt(page, 'e4'), 'wP');
    await pickGame(page, 'xiangqi', 90);
    await waitForPlies(page, 1);
    assert.equal(await pieceAt(page, 'e3'), 'rC');
    // "New game" still starts afresh (through its dialog).
    await page.locator('[data-action="new-game"]').click();
    await page.locator('[data-action="start-game"]').click();
    await waitForPlies(page, 0);
  }));

test('no console errors or uncaught exceptions across the games', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page, app) => {
    await dragMoves(page, [['e2', 'e4', 'wP']]);
    await page.locator('[data-action="flip"]').click();
    await page.locator('[data-action="undo"]').click();
    await waitForPlies(page, 0);
    await pickGame(page, 'xiangqi', 90);
    await dragMoves(page, [['h3', 'e3', 'rC']]);
    await pickGame(page, 'banqi', 32);
    await click(page, 'a1');
    await waitForPlies(page, 1);
    assert.notEqual(await pieceAt(page, 'a1'), '?');
    await pickGame(page, 'gomoku', 225);
    await click(page, 'h8');
    await waitForPiece(page, 'h8', 'b');
    await page.locator('select[data-setting="theme"]').selectOption('dark');
    await page.locator('html[data-theme="dark"]').waitFor();
    await page.locator('select[data-setting="clock"]').selectOption({ index: 2 });
    await page.locator('[data-clock="first"]').waitFor();
    // A clock of one's own: minutes and seconds a move.
    await page.locator('select[data-setting="clock"]').selectOption('custom');
    await page.locator('input[data-setting="clock-minutes"]').fill('2');
    await page.locator('input[data-setting="clock-minutes"]').dispatchEvent('change');
    await page.locator('[data-clock="first"] .clock-time', { hasText: '2:00' }).waitFor();
    await page.locator('input[data-setting="clock-increment"]').fill('7');
    await page.locator('input[data-setting="clock-increment"]').dispatchEvent('change');
    await page.waitForFunction(() => /2\+7/.test(document.querySelector('select[data-setting="clock"]').selectedOptions[0].text));
    await page.locator('[data-action="new-game"]').click();
    await page.locator('[data-action="start-game"]').click();
    await waitForPlies(page, 0);
    assert.deepEqual(app.errors, []);
  }));

test('chess: a move from an earlier position makes a variation; keys walk the tree; it survives a reload', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    await dragMoves(page, [
      ['e2', 'e4', 'wP'],
      ['e7', 'e5', 'bP'],
      ['g1', 'f3', 'wN'],
    ]);
    const current = () => page.locator('.move-list .move.current').getAttribute('data-path');
    // The focus is on the board after the drags: the arrows walk the moves, not the cells.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.locator('.move-list [data-ply="1"].current').waitFor();
    // The status speaks of the position shown: after 1. e4 it is Black's move.
    assert.match(await statusText(page), /Black to move/);
    assert.doesNotMatch(await statusText(page), /White to move/);
    await drag(page, 'c7', 'c5');
    await waitForPiece(page, 'c5', 'bP');
    const variation = page.locator('.move-list li.variation .variation-move');
    await variation.first().waitFor();
    assert.deepEqual(await variation.allTextContents(), ['c5']);
    assert.deepEqual(await moveList(page), ['e4', 'e5', 'Nf3'], 'the main line stays');
    assert.equal(await current(), '1.0:1');
    await page.locator('[data-testid="in-variation"]').waitFor();
    await drag(page, 'g1', 'f3');
    await waitForPiece(page, 'f3', 'wN');
    assert.deepEqual(await variation.allTextContents(), ['c5', 'Nf3']);
    // ← leaves the variation for its branch point; → then follows the main line.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await current(), ':1');
    await page.keyboard.press('ArrowRight');
    assert.equal(await current(), ':2');
    assert.equal(await pieceAt(page, 'e5'), 'bP');
    await page.keyboard.press('Home');
    assert.equal(await page.locator('.move-list .move.current').count(), 0);
    assert.equal(await pieceAt(page, 'e2'), 'wP');
    await page.keyboard.press('End');
    await waitForPiece(page, 'f3', 'wN');
    assert.equal(await current(), ':3');
    // A click goes into the variation; the game itself still goes on from its own end.
    await variation.nth(1).click();
    assert.equal(await current(), '1.0:2');
    assert.equal(await pieceAt(page, 'c5'), 'bP');
    await page.keyboard.press('ArrowDown');
    await page.locator('.move-list button', { hasText: 'Back to the game' }).click();
    await dragMoves(page, [['b8', 'c6', 'bN']]);
    assert.deepEqual(await moveList(page), ['e4', 'e5', 'Nf3', 'Nc6']);
    // A reload opens the game from its address; this browser keeps the variation.
    await page.reload();
    await page.locator('.move-list [data-ply="4"]').waitFor();
    assert.deepEqual(await variation.allTextContents(), ['c5', 'Nf3']);
    // Making the variation the main line: the game goes on from its end.
    await variation.nth(1).click();
    await page.locator('[data-testid="make-main-line"]').click();
    await waitForPlies(page, 3);
    assert.deepEqual(await moveList(page), ['e4', 'c5', 'Nf3']);
    assert.deepEqual(await variation.allTextContents(), ['e5', 'Nf3', 'Nc6']);
    assert.match(await statusText(page), /Black to move/);
  }));

test('arrows and circles by right-drag and right-click, marks and a comment, kept over a reload and in the PGN', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    await dragMoves(page, [['e2', 'e4', 'wP']]);
    const centre = async (name) => {
      const box = await square(page, name).boundingBox();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const rightDrag = async (from, to, modifiers = []) => {
      for (const key of modifiers) await page.keyboard.down(key);
      const [a, b] = [await centre(from), await centre(to)];
      await page.mouse.move(a.x, a.y);
      await page.mouse.down({ button: 'right' });
      await page.mouse.move(b.x, b.y, { steps: 5 });
      await page.mouse.up({ button: 'right' });
      for (const key of modifiers) await page.keyboard.up(key);
    };
    await rightDrag('g1', 'f3');
    await page.locator('[data-shape="g1-f3"].green').waitFor();
    await rightDrag('d5', 'd5', ['Shift']);
    await page.locator('[data-shape="d5"].red').waitFor();
    // The same arrow again takes it off; the browser's menu never opened (no error either).
    await rightDrag('g1', 'f3');
    await page.locator('[data-shape="g1-f3"]').waitFor({ state: 'detached' });
    await rightDrag('f1', 'c4', ['Alt']);
    await page.locator('[data-shape="f1-c4"].blue').waitFor();
    // A mark and a comment on 1. e4.
    await page.locator('.move-notes [data-mark="1"]').click();
    await page.locator('.move-list [data-ply="1"] .marks', { hasText: '!' }).waitFor();
    await page.locator('[data-testid="comment-box"]').fill('Best by test.');
    await page.locator('[data-testid="comment-box"]').blur();
    await page.locator('.move-list [data-comment-ply="1"]', { hasText: 'Best by test.' }).waitFor();
    // Another position has its own drawing; back at 1. e4 it is there again.
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.locator('[data-shape]').count(), 0);
    await page.keyboard.press('ArrowRight');
    await page.locator('[data-shape="f1-c4"]').waitFor();
    await page.reload();
    await page.locator('[data-shape="d5"].red').waitFor();
    assert.equal(await page.locator('[data-testid="comment-box"]').inputValue(), 'Best by test.');
    // The PGN carries them as lichess writes them.
    await page.locator('button', { hasText: 'Import / export' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]')?.value);
    const exported = await page.locator('[data-testid="export-text"]').inputValue();
    assert.match(exported, /1\. e4 \$1 \{\[%csl Rd5\] \[%cal Bf1c4\] Best by test\.\}/);
  }));

test('the link carries the tree: an embed shows the variation, the comment and the arrow, and takes the keys', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    await dragMoves(page, [
      ['e2', 'e4', 'wP'],
      ['e7', 'e5', 'bP'],
      ['g1', 'f3', 'wN'],
    ]);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await drag(page, 'c7', 'c5');
    await waitForPiece(page, 'c5', 'bP');
    await page.locator('[data-testid="comment-box"]').fill('The Sicilian.');
    await page.locator('[data-testid="comment-box"]').blur();
    // End would go to the end of the variation shown: back to the game instead.
    await page.locator('.move-list button', { hasText: 'Back to the game' }).click();
    const box = async (name) => {
      const b = await square(page, name).boundingBox();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    };
    const [from, to] = [await box('f1'), await box('b5')];
    const before = await page.evaluate(() => location.search);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down({ button: 'right' });
    await page.mouse.move(to.x, to.y, { steps: 4 });
    await page.mouse.up({ button: 'right' });
    await page.locator('[data-shape="f1-b5"]').waitFor();
    // The address follows the record: it changes once the arrow is in it.
    await page.waitForFunction((previous) => location.search !== previous, before);
    const query = await page.evaluate(() => location.search.slice(1));
    // A fresh context: nothing in storage, everything from the link.
    const context = await setup.browser.newContext({ viewport: { width: 500, height: 560 } });
    try {
      const embed = await context.newPage();
      await embed.goto(`${setup.server.url}embed/?${query}&controls=1&movelist=1`);
      await embed.locator('.embed .board [data-square]').first().waitFor();
      await embed.locator('[data-shape="f1-b5"]').waitFor();
      assert.deepEqual(await embed.locator('.embed-moves .variation-move').allTextContents(), ['c5']);
      assert.match(await embed.locator('.embed-moves .comment').innerText(), /The Sicilian\./);
      // The keys walk the tree in the embed too, once it has the focus.
      await embed.locator('.embed-moves').click({ position: { x: 2, y: 2 } });
      await embed.keyboard.press('Home');
      await embed.keyboard.press('ArrowRight');
      assert.equal(await embed.locator('.embed-moves .move.current').getAttribute('data-ply'), '1');
      await embed.locator('.embed-moves .variation-move').click();
      await embed.locator('[data-square="c5"] [data-piece="bP"]').waitFor();
      await embed.keyboard.press('ArrowLeft');
      assert.equal(await embed.locator('.embed-moves .move.current').getAttribute('data-ply'), '1');
      // A link may open in a variation: 1... c5 is `ply=1.0.1`.
      await embed.goto(`${setup.server.url}embed/?${query}&movelist=1&ply=1.0.1`);
      await embed.locator('[data-square="c5"] [data-piece="bP"]').waitFor();
      await embed.locator('.embed-moves .variation-move.current', { hasText: 'c5' }).waitFor();
    } finally {
      await context.close();
    }
    // The embed dialog's "at the shown move" follows the position into the variation.
    await page.locator('.move-list .variation-move', { hasText: 'c5' }).click();
    await waitForPiece(page, 'c5', 'bP');
    await page.locator('[data-action="embed"]').click();
    const snippet = await page.locator('[data-testid="embed-snippet"]').inputValue();
    assert.match(snippet, /&amp;ply=1\.0\.1/);
    await page.frameLocator('[data-testid="embed-preview"]').locator('[data-square="c5"] [data-piece="bP"]').waitFor();
  }));

test('sounds: a move, a capture, a refused move, check and the end; none once the sound is off', { timeout: TEST_TIMEOUT }, () =>
  withApp({ initScript: () => { window.qiSoundLog = []; } }, async (page) => {
    const heard = () => page.evaluate(() => [...window.qiSoundLog]);
    await dragMoves(page, [
      ['e2', 'e4', 'wP'],
      ['d7', 'd5', 'bP'],
      ['e4', 'd5', 'wP'],
    ]);
    // The queen cannot pass the pawn on d5.
    await drag(page, 'd8', 'd1');
    await page.locator('[data-testid="notice"]').waitFor();
    await page.waitForFunction(() => window.qiSoundLog.length === 4);
    assert.deepEqual(await heard(), ['move', 'move', 'capture', 'refused']);
    await page.locator('select[data-setting="sound"]').selectOption('0');
    await dragMoves(page, [['d8', 'd5', 'bQ']]);
    assert.deepEqual(await heard(), ['move', 'move', 'capture', 'refused'], 'nothing once the sound is off');
    await page.locator('select[data-setting="sound"]').selectOption('60');
    await dragMoves(page, [['g1', 'f3', 'wN'], ['d5', 'e5', 'bQ']]);
    await page.waitForFunction(() => window.qiSoundLog.length === 6);
    assert.deepEqual((await heard()).slice(4), ['move', 'check']);
    // A clock running low: two pips, once (a 1-minute clock, its last ten seconds).
    await page.clock.install();
    await page.locator('select[data-setting="clock"]').selectOption({ index: 1 });
    await page.locator('[data-clock="first"]').waitFor();
    await dragMoves(page, [['e2', 'e4', 'wP']]);
    await page.clock.runFor(51_000);
    await page.waitForFunction(() => window.qiSoundLog.includes('low-time'));
    await page.clock.runFor(3_000);
    assert.equal((await heard()).filter((s) => s === 'low-time').length, 1, 'once');
  }));

test('an embed is silent unless its page asked for sound', { timeout: TEST_TIMEOUT }, async () => {
  for (const [query, expected] of [['', []], ['&sound=1', ['move']]]) {
    const app = await openApp(setup.browser, `${setup.server.url}embed/?game=chess&play=1&movelist=1${query}`, {
      initScript: () => { window.qiSoundLog = []; },
    });
    try {
      await drag(app.page, 'e2', 'e4');
      await waitForPiece(app.page, 'e4', 'wP');
      await app.page.waitForTimeout(300);
      assert.deepEqual(await app.page.evaluate(() => [...window.qiSoundLog]), expected, `embed${query}`);
      assert.deepEqual(app.errors, []);
    } finally {
      await app.close();
    }
  }
});

test('undo of a move with a comment says the notes went with it, and puts them back on request', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    await dragMoves(page, [
      ['e2', 'e4', 'wP'],
      ['e7', 'e5', 'bP'],
    ]);
    // The comment goes on the move shown: wait until the move list has the second move (a
    // comment typed a moment earlier went on the first, and the test waited for nothing).
    await waitForPlies(page, 2);
    await page.locator('[data-testid="comment-box"]').fill('The open game.');
    await page.locator('[data-testid="comment-box"]').blur();
    await page.locator('.move-list [data-comment-ply="2"]').waitFor();
    await page.locator('[data-action="undo"]').click();
    await waitForPlies(page, 1);
    await page.locator('[data-testid="notice"]', { hasText: 'Taken back, with the notes' }).waitFor();
    assert.equal(await page.locator('.move-list [data-comment-ply="2"]').count(), 0);
    await page.locator('[data-action="restore-taken-back"]').click();
    await waitForPlies(page, 2);
    await waitForPiece(page, 'e5', 'bP');
    await page.locator('.move-list [data-comment-ply="2"]', { hasText: 'The open game.' }).waitFor();
    assert.equal(await page.locator('[data-testid="notice"]').count(), 0);
  }));

test('xiangqi in 简体中文: the move list speaks Chinese notation, and a Chinese record imports', { timeout: TEST_TIMEOUT }, () =>
  withApp({ settings: { game: 'xiangqi', lang: 'zh' } }, async (page) => {
    await page.locator('.app[data-current-game="xiangqi"]').waitFor();
    await dragMoves(page, [
      ['h3', 'e3', 'rC'],
      ['h10', 'g8', 'bN'],
    ]);
    assert.deepEqual(await moveList(page), ['炮二平五', '马８进７']);
    await page.locator('[data-action="records"]').click();
    await page.locator('[data-testid="import-text"]').fill('1. 炮二平五 馬8進7 2. 兵七进一 {仙人指路} *');
    await page.locator('[data-action="import"]').click();
    await waitForPlies(page, 3);
    assert.deepEqual(await moveList(page), ['炮二平五', '马８进７', '兵七进一']);
    await page.locator('.move-list [data-comment-ply="3"]', { hasText: '仙人指路' }).waitFor();
  }));

test('opening names: chess by ECO code and name, transpositions too, kept in the exported PGN; xiangqi in 简体中文', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    const opening = page.locator('[data-testid="opening"]');
    await dragMoves(page, [
      ['e2', 'e4', 'wP'],
      ['e7', 'e5', 'bP'],
      ['g1', 'f3', 'wN'],
      ['b8', 'c6', 'bN'],
      ['f1', 'b5', 'wB'],
    ]);
    await page.waitForFunction(() => document.querySelector('[data-testid="opening"]')?.textContent === 'C60 Ruy Lopez');
    // Out of book the name stays.
    await dragMoves(page, [['h7', 'h6', 'bP'], ['a2', 'a3', 'wP']]);
    assert.match(await opening.textContent(), /^C6\d Ruy Lopez/);
    // Kept in the record.
    await page.locator('button', { hasText: 'Import / export' }).click();
    await page.waitForFunction(() => /\[ECO "C6\d"\]/.test(document.querySelector('[data-testid="export-text"]')?.value || ''));
    assert.match(await page.locator('[data-testid="export-text"]').inputValue(), /\[Opening "Ruy Lopez/);
    await page.locator('[data-action="close-dialog"]').click();
    // Xiangqi, in Chinese, with xqbase's ECCO codes: 炮二平五 马８进７ 马二进三 马２进３ is C00 中炮对屏风马.
    await page.locator('select[data-setting="language"]').selectOption('zh-CN');
    await pickGame(page, 'xiangqi', 90);
    await dragMoves(page, [
      ['h3', 'e3', 'rC'],
      ['h10', 'g8', 'bN'],
    ]);
    await page.waitForFunction(() => document.querySelector('[data-testid="opening"]')?.textContent === 'B05 中炮对进左马');
    await dragMoves(page, [
      ['h1', 'g3', 'rN'],
      ['b10', 'c8', 'bN'],
    ]);
    await page.waitForFunction(() => document.querySelector('[data-testid="opening"]')?.textContent === 'C00 中炮对屏风马');
  }));

test('xiangqi and banqi pieces, characters or symbols, and the river are drawn without any text, so no font is needed; the set is kept over a reload', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    await pickGame(page, 'xiangqi', 90);
    // The traditional characters are our own strokes: nothing on the board is text.
    assert.equal(await page.locator('.board svg text').count(), 0, 'no text on the board');
    assert.equal(await page.locator('.board .river path').count(), 4, 'the river words are drawn');
    const general = () => page.locator('[data-square="e1"] [data-piece] svg').innerHTML();
    const character = await general();
    await page.locator('select[data-setting="pieces"]').selectOption('symbols');
    await page.waitForFunction((before) => document.querySelector('[data-square="e1"] [data-piece] svg').innerHTML !== before, character);
    assert.equal(await page.locator('.board [data-piece] svg text').count(), 0);
    assert.equal(await page.locator('.board [data-piece] svg').count(), 32);
    await page.reload();
    await page.locator('.board [data-square]').first().waitFor();
    assert.equal(await page.locator('.board [data-piece] svg text').count(), 0);
    await pickGame(page, 'banqi', 32);
    // Face-down discs have no text either way; a flipped piece is a symbol.
    await click(page, 'a1');
    await page.waitForFunction(() => document.querySelector('[data-square="a1"] [data-piece]')?.dataset.piece !== '?');
    assert.equal(await page.locator('.board [data-piece] svg text').count(), 0);
  }));

test('gomoku: move numbers on the stones, as an option', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    await pickGame(page, 'gomoku', 225);
    await click(page, 'h8');
    await waitForPiece(page, 'h8', 'b');
    await click(page, 'i9');
    await waitForPiece(page, 'i9', 'w');
    assert.equal(await page.locator('.stone-number').count(), 0);
    await page.locator('input[data-setting="stone-numbers"]').check();
    await page.locator('[data-square="i9"] .stone-number', { hasText: '2' }).waitFor();
    assert.equal(await page.locator('[data-square="h8"] .stone-number').innerText(), '1');
  }));

test('new game: one dialog for the game, opponent, level, rules and clock; closed, the game goes on', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    await dragMoves(page, [['e2', 'e4', 'wP']]);
    const open = async () => {
      await page.locator('[data-action="new-game"]').click();
      const dialog = page.locator('.dialog.new-game');
      await dialog.waitFor();
      return dialog;
    };
    // Choices made, then closed: nothing changed, the move is still there.
    let dialog = await open();
    await dialog.locator('button[data-new-game="gomoku"]').click();
    await dialog.locator('select[data-setting="mode"]').selectOption('computer-second');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await page.locator('.app').getAttribute('data-current-game'), 'chess');
    await waitForPlies(page, 1);
    assert.equal(await page.locator('.side select[data-setting="mode"]').inputValue(), 'hotseat');
    // Gomoku against level 3 with a custom clock of 2 + 5, Renju rules: one click on Play.
    dialog = await open();
    await dialog.locator('button[data-new-game="gomoku"]').click();
    await dialog.locator('select[data-setting="mode"]').selectOption('computer-second');
    await dialog.locator('select[data-setting="level"]').selectOption('3');
    await dialog.locator('select[data-rule="rule"]').selectOption('renju');
    await dialog.locator('select[data-setting="clock"]').selectOption('custom');
    await dialog.locator('input[data-setting="clock-minutes"]').fill('2');
    await dialog.locator('input[data-setting="clock-minutes"]').dispatchEvent('change');
    await dialog.locator('input[data-setting="clock-increment"]').fill('5');
    await dialog.locator('input[data-setting="clock-increment"]').dispatchEvent('change');
    assert.equal(await page.locator('.app').getAttribute('data-current-game'), 'chess', 'a draft until Play');
    await dialog.locator('[data-action="start-game"]').click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.app[data-current-game="gomoku"]').waitFor();
    await waitForPlies(page, 0);
    await page.locator('[data-clock="first"] .clock-time', { hasText: '2:00' }).waitFor();
    const side = page.locator('.side');
    assert.equal(await side.locator('select[data-setting="mode"]').inputValue(), 'computer-second');
    assert.equal(await side.locator('select[data-setting="level"]').inputValue(), '3');
    assert.equal(await side.locator('select[data-rule="rule"]').inputValue(), 'renju');
    assert.match(await side.locator('select[data-setting="clock"]').evaluate((s) => s.selectedOptions[0].text), /2\+5/);
    // The person plays first and the computer answers.
    await click(page, 'h8');
    await waitForPlies(page, 2);
  }));

test('gomoku on a touch screen: the first tap shows the stone, the second places it (a setting, on by default for touch)', { timeout: TEST_TIMEOUT }, async () => {
  const app = await openApp(setup.browser, setup.server.url, { hasTouch: true, isMobile: true, viewport: { width: 360, height: 740 } });
  try {
    const page = app.page;
    await pickGame(page, 'gomoku', 225);
    assert.equal(await page.locator('input[data-setting="confirm-stones"]').isChecked(), true, 'on for a touch screen');
    await page.locator('[data-square="h8"]').tap();
    await page.locator('[data-square="h8"] [data-ghost="b"]').waitFor();
    assert.equal(await pieceAt(page, 'h8'), null, 'shown, not placed');
    await page.locator('[data-square="h8"]').tap();
    await waitForPiece(page, 'h8', 'b');
    assert.equal(await page.locator('[data-ghost]').count(), 0);
    await waitForPlies(page, 1);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('two board colour sets and a board size on a wide screen, kept over a reload', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    const colour = () => page.locator('[data-square="a1"]').evaluate((e) => getComputedStyle(e).backgroundColor);
    const width = async () => (await page.locator('.board-frame').boundingBox()).width;
    const wood = await colour();
    const full = await width();
    await page.locator('select[data-setting="boards"]').selectOption('slate');
    await page.waitForFunction((before) => getComputedStyle(document.querySelector('[data-square="a1"]')).backgroundColor !== before, wood);
    const slate = await colour();
    await page.locator('input[data-setting="board-size"]').fill('70');
    await page.waitForFunction((before) => document.querySelector('.board-frame').getBoundingClientRect().width < before * 0.8, full);
    const smaller = await width();
    assert.ok(Math.abs(smaller / full - 0.7) < 0.03, `${smaller} of ${full}`);
    await page.reload();
    await page.locator('.board [data-square]').first().waitFor();
    assert.equal(await colour(), slate);
    assert.ok(Math.abs((await width()) - smaller) < 2);
    // Xiangqi's board is slate too.
    await pickGame(page, 'xiangqi', 90);
    const paper = await page.locator('.board').evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.notEqual(paper, 'rgb(233, 199, 143)', 'not the wood colour');
  }));

test('banqi: a tray of captured pieces and the face-down count per colour', { timeout: TEST_TIMEOUT }, async () => {
  const app = await openApp(setup.browser, `${setup.server.url}?game=banqi&fen=K*n6/8/8/6Pk_1_r_0_-_-`);
  try {
    const tray = app.page.locator('[data-testid="banqi-tray"]');
    await tray.waitFor();
    assert.equal(await tray.locator('.tray-row.red .tray-piece').count(), 14);
    assert.equal(await tray.locator('.tray-row.black .tray-piece').count(), 14);
    assert.equal(await tray.locator('.tray-row.black .tray-hidden').getAttribute('data-face-down'), '1');
    assert.match(await tray.locator('.tray-row.black .tray-hidden').innerText(), /1 face down/);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('xiangqi boards carry the traditional file numbers (Red 9…1 below, Black 1…9 above; 九…一 in 简体中文), or letters as an option', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    await pickGame(page, 'xiangqi', 90);
    const labels = () => page.locator('.board .coord').evaluateAll((spans) =>
      spans.map((s) => `${s.closest('[data-coord-of]').dataset.coordOf}${s.classList.contains('top') ? '^' : ''}=${s.textContent}`));
    let shown = await labels();
    // C2=5 (炮二平五) reads on this board: Red's 2 is the h-file, 5 the e-file; Black's 8 is the h-file.
    for (const label of ['a1=9', 'h1=2', 'e1=5', 'i1=1', 'a10^=1', 'h10^=8']) assert.ok(shown.includes(label), `${label} in ${shown}`);
    assert.equal(shown.length, 18);
    // Flipped, each side's numbers stay on its own edge.
    await page.locator('[data-action="flip"]').click();
    shown = await labels();
    assert.ok(shown.includes('a10=1') && shown.includes('a1^=9'), `${shown}`);
    await page.locator('[data-action="flip"]').click();
    // In 简体中文, Red's numbers are Chinese numerals, as 炮二平五 writes them.
    await page.locator('select[data-setting="language"]').selectOption('zh-CN');
    shown = await labels();
    assert.ok(shown.includes('a1=九') && shown.includes('h1=二') && shown.includes('h10^=8'), `${shown}`);
    await page.locator('select[data-setting="language"]').selectOption('en');
    await page.locator('select[data-setting="board-labels"]').selectOption('letters');
    shown = await labels();
    assert.ok(shown.includes('a1=a') && shown.includes('a10=10'), `${shown}`);
    // The choice is kept.
    await page.reload();
    await page.locator('.app[data-current-game="xiangqi"]').waitFor();
    assert.equal(await page.locator('select[data-setting="board-labels"]').inputValue(), 'letters');
  }));

test('review: every position analysed with a progress bar; the hung queen is a blunder; accuracy and a graph that goes to a move', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    // 1. e4 e5 2. Nf3 Qg5?? 3. Nxg5: Black's queen hangs to the knight.
    await dragMoves(page, [
      ['e2', 'e4', 'wP'],
      ['e7', 'e5', 'bP'],
      ['g1', 'f3', 'wN'],
      ['d8', 'g5', 'bQ'],
      ['f3', 'g5', 'wN'],
    ]);
    await page.locator('[data-action="review"]').click();
    const review = page.locator('[data-testid="review"]');
    await review.waitFor();
    // Under way: a progress bar and a way to stop it.
    await page.locator('[data-action="cancel-review"]').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="review"]')?.dataset.progress === '100', null, { timeout: 30_000 });
    await page.locator('[data-action="cancel-review"]').waitFor({ state: 'detached' });
    // Done: the review offers puzzles from the game (for the side that moved first here).
    assert.match(await page.locator('[data-action="review-puzzles"]').getAttribute('href'), /^puzzles\/\?mine=first&g=/);
    const rows = await review.locator('tbody tr').evaluateAll((trs) =>
      Object.fromEntries(trs.map((tr) => [tr.className, [...tr.querySelectorAll('td')].map((td) => td.textContent)])));
    assert.deepEqual(rows['judged-blunder'], ['0', '1'], JSON.stringify(rows));
    const [white, black] = rows.accuracy.map((a) => parseInt(a, 10));
    assert.ok(white > black + 20, JSON.stringify(rows.accuracy));
    // The blunder is marked in the move list.
    assert.match(await page.locator('.move-list').innerText(), /Qg5\s*\?\?/);
    // The graph: a click on the second position goes there.
    const graph = page.locator('[data-testid="eval-graph"]');
    await graph.locator('circle.judged-blunder').waitFor();
    await graph.locator('rect.graph-target[data-ply="2"]').click();
    await page.locator('.move-list button.current[data-ply="2"]').waitFor();
    assert.equal(await pieceAt(page, 'g5'), null);
    assert.equal(await pieceAt(page, 'e5'), 'bP');
  }));

test('analysis: an evaluation and a line within two seconds; the best move is an arrow; a click plays the line into a variation', { timeout: TEST_TIMEOUT }, () =>
  withApp({}, async (page) => {
    // 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. Nf3 Qd5?? hangs the queen to the knight.
    await dragMoves(page, [
      ['e2', 'e4', 'wP'],
      ['d7', 'd5', 'bP'],
      ['e4', 'd5', 'wP'],
      ['d8', 'd5', 'bQ'],
      ['b1', 'c3', 'wN'],
      ['d5', 'a5', 'bQ'],
      ['g1', 'f3', 'wN'],
      ['a5', 'd5', 'bQ'],
    ]);
    const started = Date.now();
    await page.locator('[data-action="analyse"]').click();
    const evaluation = page.locator('[data-testid="eval"]');
    await evaluation.waitFor({ timeout: 2000 });
    const took = Date.now() - started;
    assert.ok(took < 2000, `the first evaluation took ${took} ms`);
    // White wins the queen: several pawns up, the knight takes on d5.
    await page.waitForFunction(() => {
      const text = document.querySelector('[data-testid="eval"]')?.textContent || '';
      return parseFloat(text) > 5;
    });
    assert.match(await page.locator('[data-testid="analysis-line"] .line-moves').first().innerText(), /^Nxd5/);
    await page.locator('.shapes .engine[data-shape="c3-d5"]').waitFor();
    // Up to three lines, each its own first move and score, best first.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="analysis-line"]').length === 3);
    const lines = await page.locator('[data-testid="analysis-line"]').evaluateAll((buttons) =>
      buttons.map((b) => [b.querySelector('.line-score').textContent, b.querySelector('.line-moves').textContent.split(' ')[0]]));
    assert.equal(new Set(lines.map(([, first]) => first)).size, 3, JSON.stringify(lines));
    assert.ok(parseFloat(lines[0][0]) > parseFloat(lines[2][0]) + 3, JSON.stringify(lines));
    // At the game's own position the line is not played for the players: its words are plain
    // text in the panel's own colour, not a greyed-out button that looks broken; one move
    // back it is a button that plays it as a variation.
    const live = page.locator('[data-testid="analysis-line"]').first();
    assert.equal(await live.evaluate((line) => line.tagName), 'SPAN');
    assert.equal(await live.evaluate((line) => getComputedStyle(line).color),
      await page.locator('[data-testid="analysis"]').evaluate((panel) => getComputedStyle(panel).color));
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await page.locator('[data-action="analyse"]').click();
    await page.locator('[data-action="analyse"]').click();
    await page.locator('button[data-testid="analysis-line"]').first().waitFor();
    await page.locator('button[data-testid="analysis-line"]').first().click();
    await page.locator('.move-list li.variation .variation-move').first().waitFor();
    assert.equal((await moveList(page)).length, 8, 'the main line stays');
  }));
