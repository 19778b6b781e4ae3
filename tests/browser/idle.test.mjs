// Frames on demand: an idle page draws nothing; input, set() and a canvas coming back on screen draw at
// once; an off-screen canvas draws nothing even when asked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openDemo, withCleanPage } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

const frame = (page) => page.evaluate(() => window.attentionDemo.frameStats().frame);

// Waits until no frame has been drawn for `quiet` ms (the app stops after input settles); fails after 10 s.
async function settle(page, quiet = 800) {
  let last = await frame(page);
  for (let waited = 0; waited < 10000; waited += quiet) {
    await page.waitForTimeout(quiet);
    const now = await frame(page);
    if (now === last) return now;
    last = now;
  }
  assert.fail(`the page kept drawing for 10 s without input (frame ${last})`);
}

// Resolves once frameStats().frame passes `after` (polled at every animation frame of the page).
const drawnAfter = (page, after, timeout = 5000) => page.waitForFunction(
  (n) => window.attentionDemo.frameStats().frame > n, after, { timeout, polling: 'raf' });

test('idle: no frame in two seconds without input; a mouse move, a key and set() each draw', async () => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=clock');
    await page.focus('#canvas');  // the keys go to the app (the page takes no focus by itself)
    await page.mouse.move(400, 300);
    const idle = await settle(page);
    await page.waitForTimeout(2000);
    assert.equal(await frame(page), idle, 'frames were drawn in two seconds without input');

    await page.mouse.move(420, 320);
    await drawnAfter(page, idle);
    const afterMove = await settle(page);

    await page.keyboard.press('Tab');
    await drawnAfter(page, afterMove);
    const afterKey = await settle(page);

    const r = await page.evaluate(() => window.attentionDemo.set({ pos: 17 }));
    assert.equal(r.ok, true, JSON.stringify(r));
    await drawnAfter(page, afterKey);
    await settle(page);
    const s = await page.evaluate(() => window.attentionDemo.state());
    assert.equal(Number(s.settings.pos), 17, 'the frame after set() shows the new setting');
  });
});

test('idle: an off-screen canvas draws nothing, even when asked; back on screen it draws', async () => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=mha');
    const before = await settle(page);
    await page.evaluate(() => { document.getElementById('canvas').style.transform = 'translateY(-300vh)'; });
    await page.waitForTimeout(300);  // the IntersectionObserver reports it
    await page.evaluate(() => window.attentionDemo.requestFrames(5));
    await page.waitForTimeout(1000);
    assert.equal(await frame(page), before, 'frames were drawn while the canvas was off screen');
    await page.evaluate(() => { document.getElementById('canvas').style.transform = ''; });
    await drawnAfter(page, before);
  });
});
