// The page's text is drawn with glyphs the browser rasterises (src/platform/font_web.cpp): no font file and
// no font rasteriser in the wasm, the atlas rebuilt at the device pixel ratio, and code points the learner
// brings (here through attentionDemo.set) added on demand instead of showing U+FFFD.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, openDemo, setAndWait, waitFrames, api, screenshot, withCleanPage } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

const font = async (page) => (await api(page, 'state')).font;

// Pixels of the shot in the CSS rectangle (x, y, w, h) whose brightest channel is above `level`.
function ink(shot, dpr, x, y, w, h, level = 150) {
  let n = 0;
  for (let py = Math.round(y * dpr); py < Math.round((y + h) * dpr); py++) {
    for (let px = Math.round(x * dpr); px < Math.round((x + w) * dpr); px++) if (Math.max(...shot.at(px, py)) > level) n++;
  }
  return n;
}

test('font: the wasm carries no font file and no ImGui default font', () => {
  const wasm = readFileSync(path.join(process.env.ATTENTION_DEMO_DIST, 'attention_demo.wasm')).toString('latin1');
  assert.ok(!wasm.includes("7])#######hV0qs'/###"), 'ImGui\'s ProggyClean (base85) is in the wasm');
  assert.ok(!(wasm.includes('glyf') && wasm.includes('hmtx') && wasm.includes('cmap')), 'a TrueType font is in the wasm');
});

test('font: browser-drawn glyphs at DPR 1 and 2, text with ink inside the menu bar', async () => {
  for (const dpr of [1, 2]) {
    await withCleanPage(browser, { deviceScaleFactor: dpr }, async (page) => {
      await openDemo(page, 'scene=order');
      const f = await font(page);
      assert.equal(f.source, 'browser', JSON.stringify(f));
      assert.match(f.family, /sans-serif/);
      assert.equal(f.ratio, dpr);
      assert.equal(f.pixel_size, 16 * dpr);
      // the base set: Latin, Greek, punctuation, super/subscripts, arrows, maths, U+FFFD (about 1,000)
      assert.ok(f.glyphs >= 900, `only ${f.glyphs} glyphs`);
      assert.ok(f.css_px > 8 * dpr && f.css_px <= 16 * dpr, `CSS size ${f.css_px}`);
      // the menu bar (0..22 CSS px high): its text has ink, all of it inside the bar (baseline placed right)
      const shot = await screenshot(page);
      const inBar = ink(shot, dpr, 0, 2, 400, 18);
      assert.ok(inBar > 60 * dpr * dpr, `menu bar text: ${inBar} bright pixels`);
      assert.equal(ink(shot, dpr, 0, 0, 400, 1), 0, 'ink above the menu bar text');
    });
  }
});

// Counts the page's own glyph drawing (measureText and fillText on its main thread) in window.glyphCalls.
const countPageGlyphs = () => {
  window.glyphCalls = 0;
  for (const C of [window.OffscreenCanvasRenderingContext2D, window.CanvasRenderingContext2D]) {
    for (const name of ['measureText', 'fillText']) {
      const f = C.prototype[name];
      C.prototype[name] = function (...a) { window.glyphCalls++; return f.apply(this, a); };
    }
  }
};

test('font: the font worker draws the atlas, none of it on the page\'s main thread; without the worker the page draws it', async () => {
  await withCleanPage(browser, { initScript: countPageGlyphs }, async (page) => {
    await openDemo(page, 'scene=order');
    const f = await font(page);
    assert.equal(f.source, 'browser');
    assert.equal(f.worker, true, JSON.stringify(f));
    assert.equal(await page.evaluate(() => window.glyphCalls), 0, 'glyphs measured or drawn on the main thread');
    // a rebuild for new code points is drawn there too, and the frames wait for it (frameStats().computing)
    await setAndWait(page, { text: 'Привет' });
    assert.ok((await font(page)).extra >= 6);
    assert.equal(await page.evaluate(() => window.glyphCalls), 0);
  });
  // The worker's script cannot load (here: a missing file in its place): the page draws the same atlas.
  const noWorker = () => {
    const W = window.Worker;
    window.Worker = function (url, options) {
      return new W(String(url) === 'font_atlas.js' ? 'no_such_font_worker.js' : url, options);
    };
  };
  await withCleanPage(browser, { initScript: noWorker }, async (page) => {
    page.removeAllListeners('console');  // the missing file's 404 is the point of this page
    await openDemo(page, 'scene=order');
    const f = await font(page);
    assert.equal(f.source, 'browser');
    assert.equal(f.worker, false, JSON.stringify(f));
    assert.ok(f.glyphs >= 900, `only ${f.glyphs} glyphs`);
    const shot = await screenshot(page);
    assert.ok(ink(shot, 1, 0, 2, 400, 18) > 60, 'menu bar text');
  });
});

test('font: the atlas follows a change of the device pixel ratio', async () => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=clock');
    assert.equal((await font(page)).pixel_size, 16);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 800, deviceScaleFactor: 1.25, mobile: false });
    await page.waitForFunction(() => window.devicePixelRatio === 1.25);
    await waitFrames(page, 3);
    const f = await font(page);
    assert.equal(f.ratio, 1.25);
    assert.equal(f.pixel_size, 20);
    assert.equal(f.source, 'browser');
  });
});

test('font: code points outside the atlas are added on demand (Cyrillic via set), not drawn as U+FFFD', async () => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=order');
    const before = await font(page);
    assert.equal(before.extra, 0);
    // Everything above the first heatmap (or the whole view) depends on the text only through the glyphs
    // drawn for it.
    const top = async () => {
      const shot = await screenshot(page);
      const y1 = Math.floor(Math.min(shot.height, ...(await api(page, 'heatmaps')).map((h) => h.rect.y)));
      const rows = [];
      for (let y = 0; y < y1; y++) for (let x = 0; x < shot.width; x++) rows.push(shot.at(x, y).join());
      return rows;
    };
    await setAndWait(page, { text: '\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD' });
    const replacement = await top();
    await setAndWait(page, { text: 'Привет' });
    const after = await font(page);
    assert.ok(after.extra >= 6 && after.glyphs >= before.glyphs + 6, JSON.stringify(after));
    const cyrillic = await top();
    const differ = cyrillic.filter((p, i) => p !== replacement[i]).length;
    assert.ok(differ > 50, `"Привет" looks like six U+FFFD (${differ} pixels differ)`);
    // a second set of the same script needs no rebuild (its block of 128 came with the first letter)
    await setAndWait(page, { text: 'Жук' });
    assert.equal((await font(page)).glyphs, after.glyphs);
  });
});
