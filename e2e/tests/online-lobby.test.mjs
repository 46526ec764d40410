// End-to-end tests of the online lobby on a phone and as it loads: the open challenges' Accept
// on the first screen at 360x640, the page's layout shift over the load, and a guest who takes a
// registered player's name. The Qi server (env QI_SERVER_BIN) serves the built pages (QI_DIST);
// the tests fail (never skip) when either is missing.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { WAIT_MS, sharedSetup } from '../support.mjs';

const TEST_TIMEOUT = 120_000;
const PHONE = { width: 360, height: 640 };

const setup = sharedSetup({ before, after }, {
  server: 'qi',
  qi: { tag: 'online-lobby', pages: ['index.html', 'online/index.html'], readyPath: 'online/' },
});

/** A person in a fresh context (their own storage) at `viewport`, with `name` kept as the
 * online name when given; the page's errors are collected. */
async function person(viewport, { name, init } = {}) {
  const context = await setup.browser.newContext({ viewport, locale: 'en-US' });
  context.setDefaultTimeout(WAIT_MS);
  if (name !== undefined) {
    await context.addInitScript((name) => {
      if (!sessionStorage.getItem('named')) {
        localStorage.setItem('qi.online.name', name);
        sessionStorage.setItem('named', '1');
      }
    }, name);
  }
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  return { context, page, errors };
}

/** Posts an open chess challenge as `name` from a desktop-sized page; returns the person. */
async function postChallenge(name) {
  const poster = await person({ width: 1280, height: 800 });
  await poster.page.goto(`${setup.base}online/`);
  await poster.page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
  await poster.page.locator('[data-testid="name"]').fill(name);
  await poster.page.locator('[data-testid="listed"]').selectOption('anyone');
  await poster.page.locator('[data-action="create"]').click();
  await poster.page.locator('main.play').waitFor();
  return poster;
}

test('on a phone (360x640) an open challenge\'s Accept is on the first screen, no scrolling', { timeout: TEST_TIMEOUT }, async () => {
  const poster = await postChallenge('Ann');
  const phone = await person(PHONE);
  try {
    await phone.page.goto(`${setup.base}online/`);
    const accept = phone.page.locator('[data-testid="challenge"]', { hasText: 'Ann' }).locator('[data-action="accept"]');
    await accept.waitFor();
    await phone.page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
    // The account box has had its answer (it is the last thing to fill in).
    await phone.page.locator('[data-testid="account"]').waitFor();
    await phone.page.waitForTimeout(300);
    const box = await accept.boundingBox();
    assert.equal(await phone.page.evaluate(() => scrollY), 0, 'not scrolled');
    assert.ok(box.y + box.height <= PHONE.height, `Accept ends ${Math.round(box.y + box.height)} px down, past the first screen`);
    await phone.page.screenshot({ path: '/tmp/qi-online-lobby-360.png' });
    await phone.page.setViewportSize({ width: 1280, height: 800 });
    await phone.page.screenshot({ path: '/tmp/qi-online-lobby-1280.png' });
    assert.deepEqual(phone.errors, []);
  } finally {
    await phone.context.close();
    await poster.context.close();
  }
});

test('the online lobby\'s cumulative layout shift over the load at 360x640 is under 0.1', { timeout: TEST_TIMEOUT }, async (t) => {
  const poster = await postChallenge('Bo');
  // Every layout shift from the first paint, with what moved.
  const observe = () => {
    window.qiShifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        const moved = (entry.sources || []).map((source) => {
          const node = source.node;
          const what = node && node.nodeType === 1
            ? `${node.tagName.toLowerCase()}.${[...node.classList].join('.')}${node.dataset?.testid ? `[${node.dataset.testid}]` : ''}`
            : String(node?.nodeName);
          return `${what} ${JSON.stringify(source.previousRect)} -> ${JSON.stringify(source.currentRect)}`;
        });
        window.qiShifts.push({ value: entry.value, at: Math.round(entry.startTime), moved });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  };
  const phone = await person(PHONE, { init: observe });
  try {
    await phone.page.goto(`${setup.base}online/`);
    await phone.page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
    await phone.page.locator('[data-testid="challenge"]', { hasText: 'Bo' }).waitFor();
    await phone.page.locator('[data-testid="account"]').waitFor();
    // Whatever comes after: the account's answer, the lists' second update.
    await phone.page.waitForTimeout(1500);
    const shifts = await phone.page.evaluate(() => window.qiShifts);
    const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
    t.diagnostic(`layout shift ${total.toFixed(4)} in ${shifts.length} shifts`);
    assert.ok(total < 0.1, `layout shift ${total.toFixed(3)}:\n${JSON.stringify(shifts, null, 1)}`);
    assert.deepEqual(phone.errors, []);
  } finally {
    await phone.context.close();
    await poster.context.close();
  }
});

test('a guest who takes a registered player\'s name is told so, and goes on under another name', { timeout: TEST_TIMEOUT }, async () => {
  // Dora registers.
  const dora = await person({ width: 1280, height: 800 });
  await dora.page.goto(`${setup.base}online/`);
  await dora.page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
  await dora.page.locator('[data-testid="account"] [data-testid="account-name"]').fill('Dora');
  await dora.page.locator('[data-testid="account-password"]').fill('correct horse battery');
  await dora.page.locator('[data-action="register"]').click();
  await dora.page.locator('[data-testid="signed-in"][data-name="Dora"]').waitFor();
  // A guest whose browser kept the name Dora: the lobby opens, says why the name went, and
  // the name field is empty for another.
  const guest = await person(PHONE, { name: 'Dora' });
  try {
    await guest.page.goto(`${setup.base}online/`);
    const notice = guest.page.locator('[data-testid="notice"]');
    await notice.waitFor();
    assert.equal(await notice.innerText(), 'That name belongs to a registered player: sign in, or choose another name.');
    await guest.page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
    const name = guest.page.locator('[data-testid="lobby"] [data-testid="name"]');
    assert.equal(await name.inputValue(), '');
    await guest.page.screenshot({ path: '/tmp/qi-online-bad-name-360.png' });
    // Typed again and a game asked for: refused again, and nothing is created.
    await name.fill('Dora');
    await guest.page.locator('[data-action="create"]').click();
    await guest.page.waitForFunction(() => document.querySelector('[data-testid="lobby"] [data-testid="name"]').value === '');
    await guest.page.locator('[data-testid="connection"][data-state="connected"]').waitFor();
    assert.equal(await guest.page.locator('main.play').count(), 0, 'no game under the refused name');
    // Another name: the game is created, under it.
    await name.fill('Dorothy');
    await guest.page.locator('[data-action="create"]').click();
    await guest.page.locator('main.play .player-name', { hasText: 'Dorothy' }).waitFor();
    // And after a reload the kept name is the new one.
    assert.equal(await guest.page.evaluate(() => localStorage.getItem('qi.online.name')), 'Dorothy');
    assert.deepEqual(guest.errors, []);
  } finally {
    await guest.context.close();
    await dora.context.close();
  }
});
