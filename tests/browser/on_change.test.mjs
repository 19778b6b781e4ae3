// Work is done only on change: with a 64-token text and 16 heads in the multi-head scene, frames in which
// the mouse moves over the grids recompute nothing and upload no texture (frameStats() counts both), a
// new text recomputes once and uploads each grid again, and state() then reports exactly the weights the
// grids show (it is built when asked for, from the same cached values).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, openDemo, waitFrames, setAndWait, api, withCleanPage, canvasInfo, cellCentre,
} from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

const words = ['refund', 'the', 'delivery', 'fee', 'not', 'cake', 'it', 'was', 'cold', 'late'];
const text = (n, shift = 0) => Array.from({ length: n }, (_, i) => words[(i + shift) % words.length]).join(' ');

test('mha at 64 tokens x 16 heads: hovering recomputes and uploads nothing; a new text does both once', async () => {
  await withCleanPage(browser, { viewport: { width: 1280, height: 900 } }, async (page) => {
    await openDemo(page, 'scene=mha&heads_view=grid');  // (auto shows 64 tokens x 16 heads as text)
    const r = await setAndWait(page, { d_model: 128, heads: 16, text: text(64) }, 4);
    assert.equal(r.ok, true, JSON.stringify(r));
    const all = (await api(page, 'heatmaps', { values: false })).filter((h) => h.id.startsWith('mha/head'));
    assert.equal(all.length, 16, 'one grid per head');
    const maps = all.filter((h) => h.visible);
    assert.ok(maps.length >= 4, `${maps.length} grids on screen`);
    const info = await canvasInfo(page);
    const before = await api(page, 'frameStats');
    let hovered = 0;
    for (let i = 0; i < 20; ++i) {
      const m = maps[i % maps.length];
      const [row0, col0, rows, cols] = m.window;  // a readable window of the 64 tokens
      const p = cellCentre(info, m, row0 + (i * 7) % rows, col0 + (i * 3) % cols);
      await page.mouse.move(p.x, p.y);
      await waitFrames(page, 1);
      const s = await api(page, 'state');
      if (s.hover && s.hover.id.startsWith('mha/head')) hovered += 1;
    }
    assert.ok(hovered >= 10, `the mouse was over a grid in ${hovered} of 20 frames`);
    const after = await api(page, 'frameStats');
    assert.ok(after.frame >= before.frame + 20, 'frames were drawn');
    assert.equal(after.recomputes, before.recomputes, 'no cache recomputed while only the mouse moved');
    assert.equal(after.uploads, before.uploads, 'no heatmap texture uploaded while only the mouse moved');

    await page.mouse.move(2, 2);
    await setAndWait(page, { text: text(64, 3) }, 4);
    const changed = await api(page, 'frameStats');
    assert.ok(changed.recomputes > after.recomputes, 'the new text was computed');
    assert.ok(changed.uploads - after.uploads >= 16, `each grid uploaded again (${changed.uploads - after.uploads})`);

    // state() is built on request from the cached values: exactly what the grids hold.
    const state = await api(page, 'state');
    const shown = (await api(page, 'heatmaps')).filter((h) => h.id.startsWith('mha/head'));
    assert.equal(state.shown.weights.length, 16);
    for (const h of shown) {
      const k = Number(h.id.slice('mha/head'.length));
      assert.deepEqual(state.shown.weights[k], h.values, `${h.id}: state() equals the drawn values`);
    }
  });
});
