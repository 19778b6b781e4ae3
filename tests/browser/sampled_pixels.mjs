// The pixel check of the hardening and long-text tests: the colour on screen at sampled cells (of the part
// drawn) equals the colormap colour of the cell's value (after a CSP, a context restore, in a token window).
import assert from 'node:assert/strict';
import { api, screenshot, canvasInfo, cellCentre, heatmapById, rng } from './harness.mjs';
import { parseColormapTables, expectedColor } from './colormap.mjs';

const tables = parseColormapTables();
const COLOR_TOLERANCE = 2;  // per channel, as in app.test.mjs (0 measured with SwiftShader)

// The screen pixel at the centre of sampled cells (min, max, `random` more) of each heatmap equals the
// colormap colour of its value. Fails listing every wrong pixel.
export async function assertHeatmapPixels(page, ids, seed = 1) {
  const info = await canvasInfo(page);
  const maps = [];  // only these (every heatmap's values of a long text are tens of megabytes)
  for (const id of ids) maps.push(...await api(page, 'heatmaps', { id }));
  const shot = await screenshot(page);
  const bad = [];
  let compared = 0;
  for (const id of ids) {
    const h = heatmapById(maps, id);
    const cells = [];
    const [row0, col0, rows, cols] = h.window ?? [0, 0, h.rows, h.cols];  // the part drawn
    let lo = null, hi = null;
    h.values.forEach((row, r) => row.forEach((v, c) => {
      if (r < row0 || r >= row0 + rows || c < col0 || c >= col0 + cols) return;
      if (!lo || v < lo.v) lo = { r, c, v };
      if (!hi || v > hi.v) hi = { r, c, v };
    }));
    cells.push(lo, hi);
    const next = rng(seed);
    for (let i = 0; i < 6; i++) {
      const r = row0 + Math.floor(next() * rows), c = col0 + Math.floor(next() * cols);
      cells.push({ r, c, v: h.values[r][c] });
    }
    for (const cell of cells) {
      const p = cellCentre(info, h, cell.r, cell.c);
      const got = shot.at(Math.floor(p.x * info.dpr), Math.floor(p.y * info.dpr));
      const want = expectedColor(tables, h.colormap, cell.v, h.range[0], h.range[1]);
      const diff = Math.max(...got.map((g, i) => Math.abs(g - want[i])));
      compared++;
      if (diff > COLOR_TOLERANCE) bad.push(`${id} [${cell.r},${cell.c}] v=${cell.v}: rgb(${got}) instead of rgb(${want})`);
    }
  }
  assert.deepEqual(bad, [], 'heatmap pixels have the colormap colour of their values');
  return compared;
}
