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

// Records, per task, how many glyphs the page measured or drew (window.glyphTasks): a counter that a task
// queued behind each call's task reads out.
const countGlyphsPerTask = () => {
  window.glyphTasks = [];
  let current = 0;
  const flush = new MessageChannel();
  flush.port1.onmessage = () => { window.glyphTasks.push(current); current = 0; };
  for (const C of [window.OffscreenCanvasRenderingContext2D, window.CanvasRenderingContext2D]) {
    for (const name of ['measureText', 'fillText']) {
      const f = C.prototype[name];
      C.prototype[name] = function (...a) {
        if (current++ === 0) flush.port2.postMessage(0);
        return f.apply(this, a);
      };
    }
  }
};

test('font: the atlas is drawn in slices, each a task of its own, and frames wait for a new one', async () => {
  await withCleanPage(browser, { initScript: countGlyphsPerTask }, async (page) => {
    await openDemo(page, 'scene=order');
    const f = await font(page);
    assert.equal(f.source, 'browser');
    assert.ok(f.slices >= 2, JSON.stringify(f));
    // about 1,000 code points measured and most of them drawn: never all in one task
    const tasks = await page.evaluate(() => window.glyphTasks);
    const total = tasks.reduce((a, b) => a + b, 0);
    assert.ok(total > 1500, `${total} glyph calls`);
    assert.ok(tasks.length >= 2 && Math.max(...tasks) < total / 2, `glyph calls per task: ${tasks.join(', ')}`);
    // a rebuild for new code points is sliced too, and frames wait for it (frameStats().computing)
    await setAndWait(page, { text: 'Привет' });
    const after = await font(page);
    assert.ok(after.extra >= 6 && after.slices >= 2, JSON.stringify(after));
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
