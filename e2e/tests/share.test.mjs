// End-to-end tests of links, the share and embed dialogs, and the embed page, in headless
// Chromium against the built app (served under a sub-path, as in app.test.mjs).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { WAIT_MS, drag, moveList, sharedSetup, startBlog, statusText, waitForPlies } from '../support.mjs';

const TEST_TIMEOUT = 180_000;

const setup = sharedSetup({ before, after });

const withApp = (query, body, options = {}) => setup.withApp({ query, ...options }, body);

/** The square shown at the board's top-left corner: tells the orientation. */
async function topLeft(page) {
  return page.locator('.board [data-square]').first().getAttribute('data-square');
}

/** The notice under the status, or '' when there is none. */
async function notice(page) {
  const locator = page.locator('[data-testid="notice"]');
  return (await locator.count()) ? locator.innerText() : '';
}

test('the address carries the game: another browser opens it and play goes on', { timeout: TEST_TIMEOUT }, async () => {
  let address;
  await withApp('', async (page) => {
    await drag(page, 'e2', 'e4');
    await drag(page, 'e7', 'e5');
    await waitForPlies(page, 2);
    await page.locator('[data-action="flip"]').click();
    await page.waitForFunction(() => /[?&]g=/.test(location.search) && /orientation=black/.test(location.search));
    address = page.url();
    assert.match(address, /\/qi\/\?g=[A-Za-z0-9_-]+&orientation=black$/);
  });
  await withApp(address.slice(setup.server.url.length), async (page) => {
    await waitForPlies(page, 2);
    assert.deepEqual(await moveList(page), ['e4', 'e5']);
    assert.match(await statusText(page), /White to move/);
    assert.equal(await topLeft(page), 'h1', 'seen from black');
    await drag(page, 'g1', 'f3');
    await waitForPlies(page, 3);
    await page.waitForFunction((before) => location.href !== before, address);
  });
});

test('hand-written links open in every game', { timeout: TEST_TIMEOUT }, async () => {
  const cases = [
    ['?game=chess&moves=e2e4+c7c5+g1f3&orientation=black', 'chess', ['e4', 'c5', 'Nf3'], /Black to move/, 'h1'],
    ['?game=chess&fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_-_0_1&moves=e7e5', 'chess', ['e5'], /White to move/, 'a8'],
    ['?game=xiangqi&moves=h3e3+h10g8', 'xiangqi', 2, /Red to move/, 'a10'],
    ['?game=gomoku&moves=h8+i9+j10&orientation=white', 'gomoku', 3, /White to move/, null],
    ['?game=banqi&seed=7&moves=c3', 'banqi', 1, /to move/, 'a4'],
  ];
  for (const [query, game, moves, status, corner] of cases) {
    await withApp(query, async (page) => {
      await page.locator(`.app[data-current-game="${game}"]`).waitFor();
      if (Array.isArray(moves)) {
        await waitForPlies(page, moves.length);
        assert.deepEqual(await moveList(page), moves, query);
      } else {
        await waitForPlies(page, moves);
      }
      assert.match(await statusText(page), status, query);
      if (corner) assert.equal(await topLeft(page), corner, query);
      assert.equal(await notice(page), '', query);
    });
  }
});

test('bad links open what they can and say what was wrong, as text', { timeout: TEST_TIMEOUT }, async () => {
  await withApp('?game=chess&moves=e2e4+e7e5+e1e3+d2d4', async (page) => {
    await waitForPlies(page, 2);
    assert.match(await notice(page), /stops before move 3/);
  });
  await withApp('?game=%3Cimg%20src%3Dx%20onerror%3D%22document.title%3D%27hacked%27%22%3E&moves=e2e4', async (page) => {
    assert.match(await notice(page), /unknown game “<img src=x/);
    assert.equal(await page.locator('.status img').count(), 0, 'no markup from the link');
    assert.notEqual(await page.title(), 'hacked');
  });
  await withApp('?game=xiangqi&fen=not+a+position&moves=h3e3', async (page) => {
    await waitForPlies(page, 1);
    assert.match(await notice(page), /position could not be read/);
  });
  await withApp('?g=AQ%21%21garbage', async (page) => {
    assert.match(await notice(page), /damaged/);
  });
  // A long link (Chromium refuses addresses past 2 MB): only its first part is read.
  const long = `?game=gomoku&moves=h8+i9+${'x'.repeat(1_500_000)}`;
  await withApp(long, async (page) => {
    await waitForPlies(page, 2);
    assert.match(await notice(page), /too long/);
  });
});

test('back and forward go between games; moves replace the entry', { timeout: TEST_TIMEOUT }, async () => {
  await withApp('', async (page) => {
    const entries = () => page.evaluate(() => history.length);
    const start = await entries();
    await drag(page, 'e2', 'e4');
    await drag(page, 'e7', 'e5');
    await waitForPlies(page, 2);
    assert.equal(await entries(), start, 'no entry per move');
    await page.locator('button[data-game="xiangqi"]').click();
    await page.locator('.app[data-current-game="xiangqi"]').waitFor();
    await page.waitForFunction((n) => history.length === n + 1, start);
    await page.goBack();
    await page.locator('.app[data-current-game="chess"]').waitFor();
    await waitForPlies(page, 2);
    assert.deepEqual(await moveList(page), ['e4', 'e5']);
    await page.goForward();
    await page.locator('.app[data-current-game="xiangqi"]').waitFor();
    await waitForPlies(page, 0);
  });
});

test('the share dialog gives a working link, a QR code, and warns about banqi deals', { timeout: TEST_TIMEOUT }, async () => {
  let link;
  await withApp('?game=chess&moves=d2d4+d7d5', async (page, app) => {
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await waitForPlies(page, 2);
    await page.locator('[data-action="share"]').click();
    link = await page.locator('[data-testid="share-link"]').inputValue();
    assert.match(link, /\/qi\/\?g=/);
    // The QR code is drawn by the worker, which starts on first use.
    await page.locator('[data-testid="qr"]').waitFor();
    assert.match(await page.locator('[data-testid="readable-link"]').inputValue(), /game=chess&moves=d2d4\+d7d5/);
    assert.equal(await page.locator('[data-testid="banqi-warning"]').count(), 0);
    await page.locator('[data-action="copy-share-link"]').click();
    await page.locator('[data-action="copy-share-link"]', { hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    await page.locator('[data-action="close-dialog"]').click();
    assert.equal(await page.locator('.dialog').count(), 0);
  });
  await withApp(link.slice(setup.server.url.length), async (page) => {
    await waitForPlies(page, 2);
    assert.deepEqual(await moveList(page), ['d4', 'd5']);
  });
  await withApp('?game=banqi&seed=3', async (page) => {
    await page.locator('[data-action="share"]').click();
    await page.locator('[data-testid="banqi-warning"]').waitFor();
  });
});

test('the embed dialog makes a lazy iframe snippet with a live preview', { timeout: TEST_TIMEOUT }, async () => {
  await withApp('?game=xiangqi&moves=h3e3+h10g8', async (page) => {
    await page.locator('[data-action="embed"]').click();
    await page.locator('[data-embed-option="play"]').check();
    await page.locator('[data-embed-option="size"]').fill('300');
    await page.locator('[data-embed-option="size"]').dispatchEvent('change');
    const snippet = await page.locator('[data-testid="embed-snippet"]').inputValue();
    assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/qi\/embed\/\?g=[^"]+&amp;play=1[^"]*" width="300" height="300" title="Xiangqi — Qi" loading="lazy"/);
    const frame = page.frameLocator('[data-testid="embed-preview"]');
    await frame.locator('.embed[data-current-game="xiangqi"] .board [data-square]').first().waitFor();
    assert.equal(await frame.locator('.embed-moves .move').count(), 2);
  });
});

test('the embed code follows the page\'s language: its title, the board it shows and the dialog\'s own words', { timeout: TEST_TIMEOUT }, async () => {
  await withApp('?game=xiangqi&moves=h3e3+h10g8', async (page) => {
    // The embed dialog once in English, then the page switched to Chinese: the code follows.
    await page.locator('[data-action="embed"]').click();
    assert.match(await page.locator('[data-testid="embed-snippet"]').inputValue(), /&amp;lang=en"/);
    await page.locator('[data-action="close-dialog"]').click();
    await page.locator('select[data-setting="language"]').selectOption('zh-CN');
    await page.locator('[data-action="embed"]').click();
    const snippet = await page.locator('[data-testid="embed-snippet"]').inputValue();
    assert.match(snippet, /&amp;lang=zh/, snippet);
    assert.match(snippet, / title="中国象棋 — Qi" /, snippet);
    assert.equal(await page.locator('.embed-dialog h2').textContent(), '把棋盘放到你的网页上');
    assert.equal(await page.locator('.embed-dialog').getByText('Preview', { exact: true }).count(), 0);
    const frame = page.frameLocator('[data-testid="embed-preview"]');
    await frame.locator('.embed .board [data-square]').first().waitFor();
    assert.equal(await frame.locator('html').getAttribute('lang'), 'zh-CN');
    assert.deepEqual(await frame.locator('.embed-moves .move').allTextContents(), ['炮二平五', '马８进７']);
  });
  // A link's `lang=` picks the app's language, as it does the loading message's and an embed's.
  await withApp('?lang=vi&game=xiangqi', async (page) => {
    assert.equal(await page.locator('html').getAttribute('lang'), 'vi');
    await page.locator('[data-action="embed"]').click();
    assert.match(await page.locator('[data-testid="embed-snippet"]').inputValue(), /&amp;lang=vi"/);
  });
});

test('a blog on another origin embeds three boards that play and replay in their frames', { timeout: TEST_TIMEOUT }, async () => {
  const embed = `${setup.server.url}embed/`;
  const frames = [
    ['replay', `${embed}?game=chess&moves=e2e4+e7e5+g1f3+b8c6&controls=1&movelist=1`, 400],
    ['play', `${embed}?game=gomoku&moves=h8+i9&play=1`, 200],
    ['redirect', `${setup.server.url}?embed=1&game=xiangqi&moves=h3e3&play=1&controls=1&theme=dark`, 640],
  ];
  const html = `<!doctype html><html><head><title>A blog</title></head><body><h1>My games</h1>
${frames.map(([id, src, size]) => `<iframe id="${id}" src="${src.replaceAll('&', '&amp;')}" width="${size}" height="${size}" title="${id}" loading="lazy" style="border:0"></iframe>`).join('\n')}
</body></html>`;
  const blog = await startBlog(html);
  const context = await setup.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  try {
    await page.goto(blog.url);
    const frame = (id) => page.frameLocator(`#${id}`);

    // Replay: the step buttons step through the game.
    const replay = frame('replay');
    await replay.locator('.embed .board [data-square]').first().waitFor();
    assert.equal(await replay.locator('.embed-moves .move.current').getAttribute('data-ply'), '4');
    await replay.locator('[data-action="first"]').click();
    await replay.locator('[data-action="next"]').click();
    assert.equal(await replay.locator('.embed-moves .move.current').getAttribute('data-ply'), '1');
    await replay.locator('[data-square="e4"] [data-piece="wP"]').waitFor();
    assert.equal(await replay.locator('[data-square="e5"] [data-piece]').count(), 0, 'before 1...e5');
    // Replay only: the board takes no moves.
    await replay.locator('[data-action="last"]').click();
    await replay.locator('[data-square="d2"]').click();
    await replay.locator('[data-square="d4"]').click();
    assert.equal(await replay.locator('[data-square="d4"] [data-piece]').count(), 0);

    // Play, at 200 px: a stone placed by a click; no horizontal scrollbar.
    const play = frame('play');
    await play.locator('.embed[data-current-game="gomoku"] [data-square="j10"]').click();
    await play.locator('[data-square="j10"] [data-piece]').waitFor();
    const playFrame = page.frames().find((f) => f.url().includes('game=gomoku'));
    const overflow = await playFrame.evaluate(() => {
      const doc = document.documentElement;
      return doc.scrollWidth - doc.clientWidth;
    });
    assert.ok(overflow <= 0, `the 200 px embed scrolls sideways by ${overflow} px`);

    // `?embed=1` on the app's address lands on the embed page; the board plays in the frame.
    const redirected = frame('redirect');
    await redirected.locator('.embed.theme-dark[data-current-game="xiangqi"]').waitFor();
    await redirected.locator('[data-square="h10"]').click();
    await redirected.locator('[data-square="g8"]').click();
    await redirected.locator('[data-square="g8"] [data-piece="bN"]').waitFor();
    assert.match(await redirected.locator('.embed-status').innerText(), /Red to move/);
    assert.deepEqual(errors, []);
    // The embed keeps nothing in the browser.
    assert.equal(await playFrame.evaluate(() => localStorage.length), 0, 'the embed stored something');
    assert.deepEqual(await context.cookies(), [], 'no cookies, in the embeds or anywhere');
  } finally {
    await context.close();
    await blog.close();
  }
});

test('records: a pasted PGN opens with its comments, exports back, and bad records name line and column', { timeout: TEST_TIMEOUT }, async () => {
  const { readFile } = await import('node:fs/promises');
  const opera = await readFile(new URL('../../crates/play/src/records/testdata/opera.pgn', import.meta.url), 'utf8');
  await withApp('', async (page) => {
    await page.locator('[data-action="records"]').click();
    await page.locator('[data-testid="import-text"]').fill(opera);
    await page.locator('[data-action="import"]').click();
    assert.match(await page.locator('[data-testid="import-result"]').innerText(), /33 moves/);
    await waitForPlies(page, 33);
    const exported = await page.locator('[data-testid="export-text"]').inputValue();
    assert.match(exported, /\[White "Paul Morphy"\]/);
    assert.match(exported, /17\. Rd8# 1-0/);
    assert.match(exported, /\{Philidor's Defence\.\}/);
    // A choice's word and its list are apart (they ran together, "FormatPGN"), and the export
    // shows a dozen lines of the record, not four.
    const layout = await page.evaluate(() => {
      const gaps = [...document.querySelectorAll('.records label.format')].map((label) => {
        const range = document.createRange();
        range.selectNodeContents(label.firstChild);
        const word = range.getBoundingClientRect();
        const list = label.querySelector('select').getBoundingClientRect();
        return { word: label.textContent.trim().slice(0, 12), gap: list.top >= word.bottom ? Infinity : list.left - word.right };
      });
      const area = document.querySelector('[data-testid="export-text"]');
      const style = getComputedStyle(area);
      const line = parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize);
      const lines = area.clientHeight / line;
      return { gaps, lines };
    });
    assert.equal(layout.gaps.length, 2, JSON.stringify(layout));
    for (const { word, gap } of layout.gaps) assert.ok(gap >= 4, `${word}: ${gap} px between the word and its list`);
    assert.ok(layout.lines >= 10, `the export shows ${layout.lines} lines`);
    // Download: a file named for the game.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-action="download"]').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'qi-chess.pgn');
    await page.locator('[data-action="close-dialog"]').click();
    assert.match(await page.locator('.move-list [data-comment-ply="4"]').innerText(), /Philidor/);
    assert.match(await page.locator('[data-result]').first().getAttribute('data-result'), /white/);

    // A record with an illegal move: the moves before it open, and the error says where.
    await page.locator('[data-action="records"]').click();
    await page.locator('[data-testid="import-text"]').fill('[Event "x"]\n\n1. e4 e5\n2. Nf3 Ke7 3. Ke3');
    await page.locator('[data-action="import"]').click();
    assert.match(await page.locator('[data-testid="import-error"]').innerText(), /^Line 4, column 15: move 3\. “Ke3” cannot be played/);
    await page.locator('[data-action="close-dialog"]').click();
    await waitForPlies(page, 4);

    // A file: a xiangqi FEN switches the game.
    await page.locator('[data-action="records"]').click();
    await page.locator('[data-testid="import-file"]').setInputFiles({
      name: 'position.fen',
      mimeType: 'text/plain',
      buffer: Buffer.from('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n'),
    });
    await page.locator('[data-testid="import-result"]').waitFor();
    await page.locator('.app[data-current-game="xiangqi"]').waitFor();
    assert.match(await statusText(page), /Black to move/);
    assert.equal(await page.locator('[data-testid="import-encoding"]').count(), 0, 'UTF-8 goes unsaid');

    // A file in GBK, as most xiangqi files on the web are, in Chinese notation: read as such.
    // (The bytes of `[Game "Chinese Chess"] [Event "中炮对屏风马"] 1. 炮二平五 马８进７ 2. 马二进三 车９平８ *`.)
    const gbk = '5b47616d6520224368696e657365204368657373225d0a5b4576656e742022d6d0c5dab6d4c6c1b7e7c2ed225d0a0a312e20c5dab6fec6bdcee520c2eda3b8bdf8a3b720322e20c2edb6febdf8c8fd20b3b5a3b9c6bda3b8202a0a';
    await page.locator('[data-testid="import-file"]').setInputFiles({
      name: 'zhongpao.pgn',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(gbk, 'hex'),
    });
    await page.locator('[data-testid="import-result"]', { hasText: 'Imported: 4 moves.' }).waitFor();
    assert.equal(await page.locator('[data-testid="import-encoding"]').innerText(), 'The file was read as gb18030.');
    assert.match(await page.locator('[data-testid="import-text"]').inputValue(), /中炮对屏风马/);
    await page.locator('[data-action="close-dialog"]').click();
    await waitForPlies(page, 4);

    // A file of several games: the list to pick from, a search, the pick on the board; the game
    // already on the board stays until then.
    const games = [
      ['Anderssen', 'Kieseritzky', '1-0', '1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 1-0'],
      ['Morphy', 'Duke of Brunswick', '1-0', '1. e4 e5 2. Nf3 d6 3. d4 Bg4 1-0'],
      ['Carlsen', 'Caruana', '1/2-1/2', '1. e4 c5 2. Nf3 Nc6 1/2-1/2'],
    ].map(([white, black, result, moves], i) => `[Event "Game ${i + 1}"]\n[White "${white}"]\n[Black "${black}"]\n[Result "${result}"]\n\n${moves}\n`).join('\n');
    await page.locator('[data-action="records"]').click();
    await page.locator('[data-testid="import-file"]').setInputFiles({
      name: 'three.pgn',
      mimeType: 'application/x-chess-pgn',
      buffer: Buffer.from(games),
    });
    const picker = page.locator('[data-testid="game-picker"]');
    await picker.waitFor();
    assert.match(await picker.innerText(), /This file holds 3 games: pick one\./);
    assert.equal(await page.locator('[data-action="pick-game"]').count(), 3);
    await waitForPlies(page, 4);
    await page.locator('[data-testid="game-search"]').fill('morphy');
    assert.equal(await page.locator('[data-action="pick-game"]').count(), 1);
    assert.equal(await page.locator('[data-action="pick-game"]').innerText(), '2. Morphy – Duke of Brunswick · 1-0 · Game 2');
    await page.locator('[data-action="pick-game"]').click();
    await page.locator('[data-testid="import-result"]', { hasText: 'Imported: 6 moves.' }).waitFor();
    await page.locator('.app[data-current-game="chess"]').waitFor();
    await page.locator('[data-action="close-dialog"]').click();
    await waitForPlies(page, 6);

    // Records from the wild (the corpus of crates/play/src/records/testdata/wild): a DhtmlXQ
    // block on a GBK web page opens with its 30 moves; the game goes out in Chinese notation as
    // GBK bytes for old tools.
    const wild = (name) => readFile(new URL(`../../crates/play/src/records/testdata/wild/${name}`, import.meta.url));
    await page.locator('[data-action="records"]').click();
    await page.locator('[data-testid="import-file"]').setInputFiles({
      name: 'dhtmlxq.htm', mimeType: 'text/html', buffer: await wild('xiangqi-dhtmlxq-gbk.htm'),
    });
    await page.locator('[data-testid="import-result"]', { hasText: 'Imported: 30 moves.' }).waitFor();
    await page.locator('.app[data-current-game="xiangqi"]').waitFor();
    await page.locator('[data-testid="export-format"]').selectOption('xiangqi-chinese');
    await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]')?.value.includes('炮'));
    await page.locator('[data-testid="export-encoding"]').selectOption('gbk');
    const [gbkDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-action="download"]').click(),
    ]);
    const bytes = await readFile(await gbkDownload.path());
    const text = new TextDecoder('gbk').decode(bytes);
    assert.match(text, /\[Event "全国赛"\]/);
    assert.match(text, /\[Title "顺炮横车对直车"\]/);
    assert.ok(!bytes.includes(Buffer.from('顺炮', 'utf8')), 'GBK bytes, not UTF-8');
    assert.equal(await page.locator('[data-testid="export-unmappable"]').count(), 0, 'GBK holds every character');
    // A Vietnamese name has no place in GBK: the download says how many characters it lost.
    await page.locator('[data-testid="import-text"]').fill('[White "Đặng"]\n\n1. e4 *');
    await page.locator('[data-action="import"]').click();
    await page.locator('[data-testid="import-result"]', { hasText: 'Imported: 1 moves.' }).waitFor();
    await page.locator('[data-testid="export-encoding"]').selectOption('gbk');
    await Promise.all([page.waitForEvent('download'), page.locator('[data-action="download"]').click()]);
    assert.match(await page.locator('[data-testid="export-unmappable"]').innerText(), /^2 characters have no place in GBK/);
    // A stray character: skipped, and said under the result.
    await page.locator('[data-testid="import-text"]').fill('1. e4 | e5 *');
    await page.locator('[data-action="import"]').click();
    await page.locator('[data-testid="import-result"]', { hasText: 'Imported: 2 moves.' }).waitFor();
    assert.equal(await page.locator('[data-testid="import-warnings"]').innerText(), 'Line 1, column 7: “|” is no move; skipped.');
    // PlayOK's gomoku with a swap choice: read under swap, the choice a move of its own.
    await page.locator('[data-testid="import-file"]').setInputFiles({
      name: 'playok.txt', mimeType: 'text/plain', buffer: await wild('gomoku-playok.pgn'),
    });
    await page.locator('[data-testid="import-result"]', { hasText: 'Imported: 25 moves.' }).waitFor();
    assert.equal(await page.locator('[data-testid="import-warnings"]').count(), 0);
    await page.locator('.app[data-current-game="gomoku"]').waitFor();
    await page.locator('[data-action="close-dialog"]').click();
    await waitForPlies(page, 25);
  });
});

test('a resignation travels with the game: in the address, in the record, back in a new browser', { timeout: TEST_TIMEOUT }, async () => {
  let address;
  await withApp('', async (page) => {
    await drag(page, 'e2', 'e4');
    await drag(page, 'e7', 'e5');
    await waitForPlies(page, 2);
    // Two players at one board: the side to move (White) resigns.
    // Resigning asks first; "Cancel" leaves the game as it was.
    await page.locator('[data-action="resign"]').click();
    await page.locator('[data-action="cancel-resign"]').click();
    assert.match(await statusText(page), /White to move/);
    await page.locator('[data-action="resign"]').click();
    await page.locator('[data-action="confirm-resign"]').click();
    assert.match(await statusText(page), /Black wins by resignation/);
    await page.waitForFunction(() => /[?&]result=0-1\+resignation/.test(location.search));
    address = page.url();
    await page.locator('[data-action="records"]').click();
    // The record is written in the worker: wait for it.
    await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]')?.value);
    const exported = await page.locator('[data-testid="export-text"]').inputValue();
    assert.match(exported, /\[Result "0-1"\]/);
    assert.match(exported, /\[Termination "normal"\]/);
    assert.match(exported, /1\. e4 e5 0-1/);
    await page.locator('[data-action="close-dialog"]').click();
  });
  await withApp(address.slice(setup.server.url.length), async (page) => {
    await waitForPlies(page, 2);
    assert.match(await statusText(page), /Black wins by resignation/);
    // Play goes on from the last position when asked.
    await page.locator('[data-action="play-from-here"]').click();
    assert.match(await statusText(page), /White to move/);
    await drag(page, 'g1', 'f3');
    await waitForPlies(page, 3);
    await page.waitForFunction(() => !/result=/.test(location.search));
  });
});
