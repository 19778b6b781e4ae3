// Long texts in the multi-head scene: at 220 tokens the grids open on a readable window around the query,
// no two labels overlap (the app reports every label's rectangle), a token window zooms in until every
// label shows and its cells show the window's values,
// Ctrl + wheel zooms around the pointer and a drag pans; at 1,024 tokens the page keeps drawing frames
// while the heads are computed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, heatmapById, launchBrowser, openDemo, setAndWait, waitFrames, watchErrors, state } from './harness.mjs';
import { assertHeatmapPixels } from './sampled_pixels.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const words = ['refund', 'the', 'delivery', 'fee', 'not', 'cake', 'it', 'was', 'cold', 'late', 'please'];
const text = (n) => Array.from({ length: n }, (_, i) => words[i % words.length]).join(' ');

// Pairs of label rectangles [x, y, w, h] of one heatmap that overlap (by more than a rounding error).
function overlapping(h) {
  const r = h.label_rects, bad = [];
  for (let i = 0; i < r.length; i++) {
    for (let j = i + 1; j < r.length; j++) {
      const a = r[i], b = r[j];
      if (a[0] < b[0] + b[2] - 0.5 && b[0] < a[0] + a[2] - 0.5 && a[1] < b[1] + b[3] - 0.5 && b[1] < a[1] + a[3] - 0.5) {
        bad.push(`${h.id}: ${JSON.stringify(a)} and ${JSON.stringify(b)}`);
      }
    }
  }
  return bad;
}

test('220 tokens: labels never overlap, a window shows every label, wheel zooms and drag pans', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await openDemo(page, 'scene=mha&heads_view=grid');
  await setAndWait(page, { text: text(220) });
  let maps = await api(page, 'heatmaps', { values: false });
  const heads = maps.filter((m) => m.id.startsWith('mha/head'));
  assert.equal(heads.length, 4);
  for (const h of heads) {
    const n = h.window[2];
    assert.deepEqual(h.window, [0, 0, n, n], 'a window around the query (token 0) by default');
    assert.ok(n < 220 && h.rect.w / n >= 6, `readable cells: ${n} tokens in ${h.rect.w} px`);
    assert.ok(h.label_rects.length >= 8, `${h.id} has labels: ${h.label_rects.length}`);
    assert.deepEqual(overlapping(h), []);
  }

  // hovering a cell: its row and column labels stand out and still overlap nothing
  const h0 = heatmapById(maps, 'mha/head0');
  await page.mouse.move(h0.rect.x + h0.rect.w * 0.52, h0.rect.y + h0.rect.h * 0.31);
  await waitFrames(page, 3);
  const hover = (await state(page)).hover;
  assert.equal(hover?.id, 'mha/head0');
  maps = await api(page, 'heatmaps', { values: false });
  assert.deepEqual(overlapping(heatmapById(maps, 'mha/head0')), [], 'hovered labels overlap nothing');

  // Ctrl + wheel over the grid zooms in around the hovered cell: it stays under the pointer
  await page.evaluate(() => document.getElementById('canvas').focus());  // the keys go to the app
  await page.keyboard.down('Control');
  await waitFrames(page, 2);
  await page.mouse.wheel(0, -120);
  await page.keyboard.up('Control');
  await waitFrames(page, 3);
  let s = await state(page);
  const span = Number(s.settings.span);
  assert.ok(span >= 4 && span < 220, `the wheel zoomed in: span ${span}`);
  const after = s.hover;
  assert.ok(Math.abs(after.row - hover.row) <= 1 && Math.abs(after.col - hover.col) <= 1,
    `the cell under the pointer stayed there: ${JSON.stringify([hover.row, hover.col])} -> ` +
    `${JSON.stringify([after.row, after.col])}`);
  assert.match(s.query, /span=\d+&from=\d+&key_from=\d+/, 'the window is in the URL');

  // the enlarged head with a 12-token window: every label shows, cells are a line high, pixels = values
  await setAndWait(page, { head: 0, span: 12, from: 100, key_from: 90 });
  maps = await api(page, 'heatmaps');
  const big = heatmapById(maps, 'mha/head0');
  assert.deepEqual(big.window, [100, 90, 12, 12]);
  assert.equal(big.label_rects.length, 24, 'all 12 query and 12 key labels are drawn');
  assert.deepEqual(overlapping(big), []);
  const lineH = Math.min(...big.label_rects.map((r) => Math.min(r[2], r[3])));
  assert.ok(big.rect.w / 12 >= lineH, `cells (${(big.rect.w / 12).toFixed(1)} px) at least a line (${lineH} px)`);
  await page.mouse.move(5, 5);
  await waitFrames(page, 3);
  await assertHeatmapPixels(page, ['mha/head0'], 5);

  // a drag to the left by 5 cells moves the keys 5 tokens on; the head stays enlarged
  const cell = big.rect.w / 12, y = big.rect.y + big.rect.h / 2;
  await page.mouse.move(big.rect.x + 6.5 * cell, y);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) {
    await page.mouse.move(big.rect.x + (6 - i + 0.5) * cell, y);
    await waitFrames(page, 1);
  }
  await page.mouse.up();
  await waitFrames(page, 3);
  s = await state(page);
  assert.equal(s.settings.key_from, '95', `the drag panned the keys: ${s.settings.key_from}`);
  assert.equal(s.settings.from, '100', 'a sideways drag leaves the queries');
  assert.equal(s.settings.head, '0', 'a drag is not a click: the head stays enlarged');
  assert.deepEqual(errors, []);
  await page.close();
});

test('1,024 tokens x 16 heads: frames keep coming while the heads are computed', async (t) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await openDemo(page, 'scene=mha');
  await setAndWait(page, { d_model: 768, heads: 16 });
  await page.evaluate((t) => window.attentionDemo.set({ text: t }), text(1024));
  // every frame while the computation runs says so; count them
  const seen = await page.evaluate(() => new Promise((resolve) => {
    const frames = new Set();
    const poll = () => {
      const fs = window.attentionDemo.frameStats();
      if (fs.computing) frames.add(fs.frame);
      if (!fs.computing && frames.size > 0) return resolve([...frames]);
      if (performance.now() > 120000) return resolve([...frames]);
      requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  }));
  assert.ok(seen.length >= 5, `frames were drawn during the computation: ${seen.length}`);
  await waitFrames(page, 3, 120000);
  const s = await state(page);
  assert.equal(s.shown.tokens.length, 1024);
  assert.equal(s.shown.stats.length, 16);
  assert.ok(s.shown.compute_ms > 0);
  t.diagnostic(`${seen.length} frames drawn during ${s.shown.compute_ms.toFixed(0)} ms of computation`);
  assert.deepEqual(errors, []);
  await page.close();
});

// Labels side by side never touch ("10" beside "15" read "1015" in the encoder's 16-column maps at
// 1280 x 800) and every axis labels every k-th row or column, evenly.
test('axis labels: side by side at least 3 px apart, evenly spaced along each axis', async () => {
  for (const [width, height] of [[1280, 800], [800, 600], [390, 844]]) {
    const page = await browser.newPage({ viewport: { width, height } });
    await openDemo(page, 'scene=encoder');
    const maps = await api(page, 'heatmaps', { values: false });
    assert.ok(maps.length >= 8, `the encoder's steps are drawn: ${maps.length}`);
    for (const m of maps.filter((x) => x.visible)) {
      const where = `${m.id} at ${width} x ${height}`;
      const cols = m.label_rects.filter((r) => r[1] + r[3] <= m.rect.y + 0.5).sort((a, b) => a[0] - b[0]);
      const rows = m.label_rects.filter((r) => r[0] + r[2] <= m.rect.x + 0.5).sort((a, b) => a[1] - b[1]);
      for (let i = 1; i < cols.length; i++) {
        if (cols[i][2] > cols[i][3]) {  // across, not turned upright
          const gap = cols[i][0] - cols[i - 1][0] - cols[i - 1][2];
          assert.ok(gap >= 2.5, `${where}: column labels ${i - 1} and ${i} are ${gap.toFixed(1)} px apart`);
        }
      }
      for (const [axis, list, k] of [['row', rows, 1], ['column', cols, 0]]) {
        const steps = list.slice(1).map((r, i) => r[k] - list[i][k]);
        assert.ok(steps.every((d) => Math.abs(d - steps[0]) < 0.6), `${where}: ${axis} labels unevenly spaced: ${steps}`);
      }
    }
    await page.close();
  }
});
