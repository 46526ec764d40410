// Offline play: after one visit the service worker (scripts/service-worker.mjs) serves the
// whole build, so the app plays the computer and the embed replays a link with the network off;
// a newer build waits for the player's reload.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import {
  DIST,
  drag,
  openApp,
  sharedSetup,
  startServer,
  waitForApp,
  waitForPiece,
} from '../support.mjs';

const TEST_TIMEOUT = 120_000;

const setup = sharedSetup({ before, after }, { server: 'none' });

/** A private copy of the build, served on its own: the update test changes it. */
async function servedCopy() {
  const dir = mkdtempSync(path.join(tmpdir(), 'qi-offline-'));
  cpSync(DIST, dir, { recursive: true });
  const server = await startServer(dir);
  return {
    dir,
    server,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the page's service worker is active (the build is in its cache). */
async function keptOffline(page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
}

test('after one visit the app plays the computer and the embed replays a link with the network off', { timeout: TEST_TIMEOUT }, async () => {
  const copy = await servedCopy();
  const app = await openApp(setup.browser, copy.server.url, {
    settings: { game: 'chess', mode: 'computer-second', level: 1, lang: 'en' },
  });
  try {
    const { page } = app;
    await keptOffline(page);
    await page.context().setOffline(true);
    await page.reload();
    await waitForApp(page);
    await drag(page, 'e2', 'e4');
    await waitForPiece(page, 'e4', 'wP');
    // The computer's engine (its worker script and wasm) comes from the cache too.
    await page.waitForFunction(() => document.querySelectorAll('.move-list [data-ply]').length >= 2, null, { timeout: 30_000 });
    // The embed, never opened online, is in the same build: it opens offline.
    await page.goto(`${copy.server.url}embed/?game=xiangqi&moves=h3e3+h10g8&movelist=1`);
    await page.locator('.embed .board [data-square]').first().waitFor();
    assert.equal(await page.locator('.embed-moves .move').count(), 2);
    assert.deepEqual(app.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e)), []);
  } finally {
    await app.close();
    await copy.close();
  }
});

test('a newer build waits for the player: a bar offers the reload, and the reload brings it', { timeout: TEST_TIMEOUT }, async () => {
  const copy = await servedCopy();
  const app = await openApp(setup.browser, copy.server.url, {});
  try {
    const { page } = app;
    await keptOffline(page);
    await page.reload();
    await waitForApp(page);
    assert.equal(await page.locator('#qi-update').count(), 0, 'no bar while the build is the same');
    // A new build: another service worker (its cache named after the new files).
    const sw = path.join(copy.dir, 'sw.js');
    const next = readFileSync(sw, 'utf8').replace(/const CACHE = 'qi-([0-9a-f]+)'/, "const CACHE = 'qi-$1-next'");
    writeFileSync(sw, next);
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    const bar = page.locator('#qi-update');
    await bar.waitFor();
    assert.match(await bar.innerText(), /A new version of Qi is ready/);
    await Promise.all([page.waitForEvent('load'), bar.locator('[data-action="update-reload"]').click()]);
    await waitForApp(page);
    const caches = await page.evaluate(() => caches.keys());
    assert.ok(caches.some((name) => name.endsWith('-next')), `the new build's cache: ${caches}`);
    assert.ok(!caches.some((name) => /^qi-[0-9a-f]+$/.test(name)), `the old cache is gone: ${caches}`);
  } finally {
    await app.close();
    await copy.close();
  }
});
