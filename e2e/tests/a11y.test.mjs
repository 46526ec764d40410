// Accessibility (issue 19): every dialog holds the focus and gives it back; moves are said in
// the live region; axe-core finds no serious or critical violation in the app's four games
// with each dialog open, at 360 and 1280 px, in the light and the dark theme.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
  WAIT_MS,
  drag,
  seriousAxeViolations,
  sharedSetup,
  startQiServer,
  waitForPlies,
} from '../support.mjs';

const TEST_TIMEOUT = 600_000;

const shared = sharedSetup({ before, after });
const withApp = (options, body) => shared.withApp(options, body);

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

test('axe-core: no serious or critical violation in any game, dialog, width or theme', { timeout: TEST_TIMEOUT }, async () => {
  const found = [];
  for (const width of [360, 1280]) {
    for (const theme of ['light', 'dark']) {
      for (const game of ['chess', 'xiangqi', 'banqi', 'gomoku']) {
        await withApp(
          { viewport: { width, height: 800 }, settings: { lang: 'en', game, theme } },
          async (page) => {
            const where = `${game} ${width}px ${theme}`;
            for (const line of await seriousAxeViolations(page)) found.push(`${where}: ${line}`);
            // Each dialog open (once per width and theme is enough: they are the same in
            // every game).
            if (game !== 'chess') return;
            for (const [action, selector] of DIALOGS) {
              await page.locator(`[data-action="${action}"]`).first().click();
              await page.locator(selector).waitFor();
              for (const line of await seriousAxeViolations(page)) found.push(`${where} ${action}: ${line}`);
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
  const context = await shared.browser.newContext({
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
          ['embed', `${shared.server.url}embed/?game=chess&moves=e2e4+e7e5+g1f3&controls=1&movelist=1&theme=${theme}`, '.embed [data-square]'],
          ['embed xiangqi', `${shared.server.url}embed/?game=xiangqi&moves=h3e3&play=1&theme=${theme}`, '.embed [data-square]'],
          ['lobby', `${qi.base}online/`, '[data-testid="connection"][data-state="connected"]'],
        ];
        for (const [name, url, ready] of pages) {
          const { page, close } = await openPage(url, width, theme);
          try {
            await page.locator(ready).first().waitFor();
            for (const line of await seriousAxeViolations(page)) found.push(`${name} ${width}px ${theme}: ${line}`);
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
    // The game-over box shows, but leaves the focus in the field the player types in (the
    // next Enter must not start a new game): the next command needs no mouse.
    await page.locator('[data-testid="game-over"]').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'sr-input');
    await type('turn');
    await page.locator('[data-testid="sr-log"] li', { hasText: /White wins/ }).waitFor();
  }),
);

/**
 * Plays `moves` (`from-to` pairs, or one point for a gomoku stone or a banqi flip) on the board
 * with the keyboard alone: the arrows walk from the focused square, Enter picks up and puts
 * down. The board is reached with Tab first (the focus is moved onto it without a pointer).
 */
async function keyboardMoves(page, moves) {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const parse = (name) => [letters.indexOf(name[0]), Number(name.slice(1)) - 1];
  let at = await page.evaluate(() => document.activeElement?.dataset.square);
  if (!at) {
    await page.locator('.board [tabindex="0"]').focus();
    at = await page.evaluate(() => document.activeElement?.dataset.square);
  }
  const walk = async (to) => {
    const [fx, fy] = parse(at);
    const [tx, ty] = parse(to);
    for (let i = 0; i < Math.abs(tx - fx); i += 1) await page.keyboard.press(tx > fx ? 'ArrowRight' : 'ArrowLeft');
    for (let i = 0; i < Math.abs(ty - fy); i += 1) await page.keyboard.press(ty > fy ? 'ArrowUp' : 'ArrowDown');
    at = to;
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.square), to, `the focus walked to ${to}`);
    await page.keyboard.press('Enter');
  };
  for (const move of moves) {
    for (const square of move.split('-')) await walk(square);
  }
}

test('keyboard only: chess and gomoku to the end on the board, xiangqi and banqi to a resignation; Esc puts a piece back', { timeout: TEST_TIMEOUT }, async () => {
  await withApp({ settings: { lang: 'en', mode: 'hotseat', game: 'chess' } }, async (page) => {
    await keyboardMoves(page, ['e2']);
    assert.equal(await page.locator('[data-square="e2"][aria-selected="true"]').count(), 1, 'picked up');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('[aria-selected="true"]').count(), 0, 'Esc put it back');
    await keyboardMoves(page, ['f2-f3', 'e7-e5', 'g2-g4', 'd8-h4']);
    await page.locator('[data-testid="game-over"]').waitFor();
    assert.match(await page.locator('[data-testid="announce"]').innerText(), /checkmate\. Black wins/);
  });
  await withApp({ settings: { lang: 'en', mode: 'hotseat', game: 'gomoku' } }, async (page) => {
    await keyboardMoves(page, ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8']);
    await page.locator('[data-testid="game-over"]').waitFor();
    assert.match(await page.locator('[data-testid="announce"]').innerText(), /^Black l8\. Black wins/);
  });
  for (const [game, moves] of [['xiangqi', ['h3-e3', 'h10-g8']], ['banqi', ['a1', 'b2']]]) {
    await withApp({ settings: { lang: 'en', mode: 'hotseat', game } }, async (page) => {
      await keyboardMoves(page, moves);
      await waitForPlies(page, 2);
      // Resign with the keyboard: Tab to the button, Enter, and Enter on the question.
      await page.locator('[data-action="resign"]').focus();
      await page.keyboard.press('Enter');
      await page.locator('[data-action="confirm-resign"]').focus();
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="game-over"]').waitFor();
    });
  }
});

test('the live region in each game and language: xiangqi in Chinese notation, a banqi flip, gomoku in Vietnamese', { timeout: TEST_TIMEOUT }, async () => {
  const cases = [
    ['xiangqi', 'zh-CN', ['h3e3'], '红方 炮二平五'],
    ['xiangqi', 'en', ['h3e3', 'h10g8'], 'Black horse h10 to g8'],
    ['gomoku', 'vi', ['h8', 'i9'], 'Trắng i9'],
    ['chess', 'zh-CN', ['e4', 'd5', 'exd5'], '白方 兵 吃 d5'],
  ];
  for (const [game, lang, moves, said] of cases) {
    await withApp({ query: '?sr=1', settings: { lang, mode: 'hotseat', game } }, async (page) => {
      const field = page.locator('[data-testid="sr-input"]');
      for (const [i, move] of moves.entries()) {
        await field.fill(move);
        await field.press('Enter');
        await waitForPlies(page, i + 1);
      }
      assert.equal(await page.locator('[data-testid="announce"]').innerText(), said, `${game} ${lang}`);
    });
  }
  await withApp({ query: '?sr=1', settings: { lang: 'en', mode: 'hotseat', game: 'banqi' } }, async (page) => {
    const field = page.locator('[data-testid="sr-input"]');
    await field.fill('flip c3');
    await field.press('Enter');
    await waitForPlies(page, 1);
    const piece = await page.locator('[data-square="c3"] [data-piece]').getAttribute('data-piece');
    assert.notEqual(piece, '?');
    assert.match(await page.locator('[data-testid="announce"]').innerText(), /^(Red|Black|First player) flips c3: (red|black) \w+$/);
  });
});

/** The lowest contrast of a board coordinate against what lies under it, and where. */
function lowestCoordinateContrast() {
  const rgb = (text) => (text.match(/[\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const channel = (v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  let lowest = { ratio: Infinity, where: '' };
  for (const span of document.querySelectorAll('.board-frame .coord')) {
    const box = span.getBoundingClientRect();
    if (box.width === 0) continue;
    const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
    // What lies under the label: the see-through layers (a last move's yellow, a selection's
    // green) laid over the first solid colour, as the browser composes them.
    const layers = [];
    for (const element of document.elementsFromPoint(x, y)) {
      if (element.closest('.coords')) continue;
      const v = rgb(getComputedStyle(element).backgroundColor);
      const alpha = v.length === 4 ? v[3] : 1;
      if (alpha === 0) continue;
      layers.push([v.slice(0, 3), alpha]);
      if (alpha > 0.99) break;
    }
    if (!layers.length || layers[layers.length - 1][1] <= 0.99) continue;
    let under = layers.pop()[0];
    while (layers.length) {
      const [colour, alpha] = layers.pop();
      under = under.map((c, i) => alpha * colour[i] + (1 - alpha) * c);
    }
    const [fg, bg] = [luminance(rgb(getComputedStyle(span).color)), luminance(under)];
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    if (ratio < lowest.ratio) lowest = { ratio, where: `${span.closest('[data-coord-of]')?.dataset.coordOf} "${span.textContent}"` };
  }
  return lowest;
}

test('board coordinates are at least 4.5:1 on their squares in every game, theme and board colour set', { timeout: TEST_TIMEOUT }, async () => {
  const low = [];
  for (const theme of ['light', 'dark']) {
    for (const boards of ['wood', 'slate']) {
      for (const game of ['chess', 'xiangqi', 'banqi', 'gomoku']) {
        await withApp({ settings: { lang: 'en', game, theme, boards, files: 'letters', mode: 'hotseat' } }, async (page) => {
          const { ratio, where } = await page.evaluate(lowestCoordinateContrast);
          assert.ok(Number.isFinite(ratio), `${game}: coordinates measured`);
          if (ratio < 4.5) low.push(`${game} ${theme} ${boards}: ${ratio.toFixed(2)} at ${where}`);
          if (game !== 'chess') return;
          // Highlighted squares under labels: the last move a2-a4 and a selected pawn on a7.
          await drag(page, 'a2', 'a4');
          await waitForPlies(page, 1);
          await page.locator('[data-square="a7"]').click();
          await page.locator('[data-square="a7"][aria-selected="true"]').waitFor();
          const lit = await page.evaluate(lowestCoordinateContrast);
          if (lit.ratio < 4.5) low.push(`${game} ${theme} ${boards} lit: ${lit.ratio.toFixed(2)} at ${lit.where}`);
        });
      }
    }
  }
  assert.deepEqual(low, []);
});

test('sr=1 in an embed: commands read the board, moves are typed only with play=1, and said', { timeout: TEST_TIMEOUT }, async () => {
  for (const play of [true, false]) {
    const context = await shared.browser.newContext({ viewport: { width: 400, height: 700 }, locale: 'en-US' });
    context.setDefaultTimeout(WAIT_MS);
    const page = await context.newPage();
    try {
      await page.goto(`${shared.server.url}embed/?game=chess&sr=1${play ? '&play=1' : ''}`);
      const field = page.locator('[data-testid="sr-input"]');
      await field.fill('where king');
      await field.press('Enter');
      await page.locator('[data-testid="sr-log"] li', { hasText: 'white king e1' }).waitFor();
      await field.fill('e4');
      await field.press('Enter');
      if (play) {
        await page.locator('[data-testid="announce"]', { hasText: 'White pawn to e4' }).waitFor();
      } else {
        await page.waitForTimeout(300);
        assert.equal(await page.locator('[data-square="e4"] [data-piece]').count(), 0, 'not played without play=1');
      }
    } finally {
      await context.close();
    }
  }
});

for (const game of ['chess', 'xiangqi', 'banqi', 'gomoku']) {
  test(`keyboard only: a whole ${game} game against the computer, the hint read from the board`, { timeout: TEST_TIMEOUT }, () =>
    withApp({ settings: { lang: 'en', mode: 'computer-second', level: 1, game } }, async (page) => {
      const turnOrResult = async () =>
        (
          await page.waitForFunction(
            () => {
              if (document.querySelector('[data-testid="status"] [data-result]')) return 'result';
              if (document.querySelector('[data-action="hint"]:not([disabled])')) return 'turn';
              return null;
            },
            null,
            { timeout: 120_000 },
          )
        ).jsonValue();
      for (let turn = 0; turn < 400; turn += 1) {
        if ((await turnOrResult()) === 'result') break;
        const plies = await page.locator('.move-list [data-ply]').count();
        // The hint with Enter; its squares are named "hint" for a screen reader.
        await page.locator('[data-action="hint"]').focus();
        await page.keyboard.press('Enter');
        const cells = await (
          await page.waitForFunction(
            () => {
              const to = document.querySelector('.cell.suggested-to')?.dataset.square;
              const from = document.querySelector('.cell.suggested-from')?.dataset.square;
              if (to) return from ? [from, to] : [to];
              // A banqi chain capture may be ended rather than continued: no square to show.
              const answered = document.querySelector('[data-action="hint"]:not([disabled])');
              if (answered && document.querySelector('[data-action="end-chain"]')) return [];
              return null;
            },
            null,
            { timeout: 120_000 },
          )
        ).jsonValue();
        if (cells.length === 0) {
          await page.locator('[data-action="end-chain"]').focus();
          await page.keyboard.press('Enter');
        } else {
          const last = cells[cells.length - 1];
          assert.match(await page.locator(`[data-square="${last}"]`).getAttribute('aria-label'), /hint/);
          await keyboardMoves(page, [cells.join('-')]);
        }
        // A promotion: the chooser has the focus, on the queen.
        if (await page.locator('.dialog.promotion').count()) await page.keyboard.press('Enter');
        await page.waitForFunction(
          (n) =>
            document.querySelectorAll('.move-list [data-ply]').length > n ||
            document.querySelector('[data-testid="status"] [data-result]'),
          plies,
        );
      }
      await page.locator('[data-testid="status"] [data-result]').waitFor();
      assert.match(await page.locator('[data-testid="announce"]').innerText(), /wins|[Dd]raw/);
    }),
  );
}
