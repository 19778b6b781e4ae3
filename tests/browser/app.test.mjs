// End-to-end tests of the browser app (dist/, served by run.sh) in headless Chromium with SwiftShader
// WebGL2: loading, the three scenes, GPU colours against the colormap, numbers against the lesson and the
// native CLI, and resizing (URL state, embed mode and the no-WebGL2 message: url.test.mjs). One browser for
// the whole file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  launchBrowser, openDemo, waitFrames, setAndWait, api, screenshot, rng, withCleanPage, canvasInfo,
  heatmapById, state, heatmaps,
} from './harness.mjs';
import { parseColormapTables, expectedColor, REPO } from './colormap.mjs';

// Per channel, 0..255. The GPU mixes the keys in float32 and writes the colour into an RGBA8 texture
// (the one rounding), which ImGui draws texel for texel (white vertex colour: exact); the expected colour
// is computed here in float64 and rounded once. Measured with SwiftShader on this machine: 0 on every
// pixel compared (the run prints the largest difference). 2 allows a GPU that truncates instead of
// rounding (1) plus float32 mixing; anything beyond is a wrong colour, e.g. a neighbouring key, a wrong
// range, gamma or blending.
const COLOR_TOLERANCE = 2;

const tables = parseColormapTables();
let browser;
let maxColorDiff = 0;  // over every pixel compared in this run

before(async () => { browser = await launchBrowser(); });
after(async () => {
  if (browser) await browser.close();
  console.log(`largest colour difference measured: ${maxColorDiff} / 255 per channel (tolerance ${COLOR_TOLERANCE})`);
});

// A fresh context and page; fails the test on any console error or uncaught exception it saw.
const withPage = (options, fn) => withCleanPage(browser, options, fn);

const r3 = (x) => Math.round(x * 1000) / 1000 + 0;  // + 0 turns -0 into 0
const byId = heatmapById;

// Cells worth checking: the smallest, the largest, the one nearest zero, and `random` more.
function sampleCells(h, random, seed) {
  const cells = [];
  let min = null, max = null, zero = null;
  for (let r = 0; r < h.rows; r++) {
    for (let c = 0; c < h.cols; c++) {
      const v = h.values[r][c];
      if (!min || v < min.v) min = { r, c, v };
      if (!max || v > max.v) max = { r, c, v };
      if (!zero || Math.abs(v) < Math.abs(zero.v)) zero = { r, c, v };
    }
  }
  cells.push({ ...min, why: 'min' }, { ...max, why: 'max' }, { ...zero, why: 'near 0' });
  const next = rng(seed);
  for (let i = 0; i < random; i++) {
    const r = Math.floor(next() * h.rows), c = Math.floor(next() * h.cols);
    cells.push({ r, c, v: h.values[r][c], why: 'random' });
  }
  return cells;
}

// Compares the screenshot's pixel at each sampled cell's centre with the colormap colour of its value.
// Returns the largest channel difference seen; fails on any pixel beyond the tolerance.
async function checkHeatmapPixels(page, ids, { random = 6, seed = 1 } = {}) {
  const info = await canvasInfo(page);
  const maps = await heatmaps(page);
  const shot = await screenshot(page);
  assert.equal(shot.width, Math.round(info.innerW * info.dpr), 'screenshot width = viewport x devicePixelRatio');
  let worst = 0;
  const bad = [];
  for (const id of ids) {
    const h = byId(maps, id);
    assert.equal(h.values.length, h.rows, `${id}: values has rows entries`);
    const { x, y, w, h: height } = h.rect;
    assert.ok(x >= 0 && y >= 0 && x + w <= info.cssW && y + height <= info.cssH,
      `${id}: rect ${JSON.stringify(h.rect)} must be inside the ${info.cssW}x${info.cssH} canvas for this check`);
    const cw = w / h.cols, ch = height / h.rows;
    assert.ok(cw * info.dpr >= 4 && ch * info.dpr >= 4, `${id}: cells of ${cw}x${ch} CSS px are too small to sample`);
    for (const cell of sampleCells(h, random, seed)) {
      const px = Math.floor((info.left + x + (cell.c + 0.5) * cw) * info.dpr);
      const py = Math.floor((info.top + y + (cell.r + 0.5) * ch) * info.dpr);
      const got = shot.at(px, py);
      const want = expectedColor(tables, h.colormap, cell.v, h.range[0], h.range[1]);
      const diff = Math.max(...got.map((g, i) => Math.abs(g - want[i])));
      worst = Math.max(worst, diff);
      if (diff > COLOR_TOLERANCE) {
        bad.push(`${id} [${cell.r},${cell.c}] (${cell.why}) v=${cell.v} range=${h.range} ${h.colormap}: ` +
                 `pixel (${px},${py}) is rgb(${got}), expected rgb(${want}) (off by ${diff})`);
      }
    }
  }
  maxColorDiff = Math.max(maxColorDiff, worst);
  assert.deepEqual(bad, [], 'heatmap pixels differ from the colormap colour of their values');
  return { worst, maps, shot, info };
}

// ---------------------------------------------------------------------------------------------------

test('loads without errors; every scene renders', async (t) => {
  await withPage({}, async (page) => {
    const t0 = Date.now();
    await openDemo(page, '');
    const loadMs = Date.now() - t0;
    const expected = {
      clock: { heatmaps: [] },
      positions: { heatmaps: ['positions/table', 'positions/similarity', 'positions/raw'] },
      word: { heatmaps: [] },
    };
    for (const [scene, want] of Object.entries(expected)) {
      const before = (await api(page, 'frameStats')).frame;
      const result = await setAndWait(page, { scene });
      assert.equal(result.ok, true, `set({scene: '${scene}'}) -> ${JSON.stringify(result)}`);
      const s = await state(page);
      assert.equal(s.scene, scene);
      assert.equal(s.error, '', `${scene}: no error`);
      const stats = await api(page, 'frameStats');
      assert.ok(stats.frame >= before + 3, `${scene}: frames advance (${before} -> ${stats.frame})`);
      assert.ok(stats.draw_calls > 0 && stats.vertices > 0, `${scene}: something was drawn ${JSON.stringify(stats)}`);
      const ids = (await heatmaps(page)).map((h) => h.id).sort();
      assert.deepEqual(ids, [...want.heatmaps].sort(), `${scene}: heatmaps drawn`);
    }
    // each scene shows its own values
    await setAndWait(page, { scene: 'clock', d_model: 8 });
    const clock = (await state(page)).shown;
    assert.equal(clock.hands.length, 4, 'd_model 8: four hands');
    assert.equal(clock.readings.length, 8);
    const info = await canvasInfo(page);
    assert.ok(info.visible && info.cssW === 1280 && info.cssH === 800, `canvas fills the window: ${JSON.stringify(info)}`);
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
    assert.equal(await page.locator('#overlay').isVisible(), false, 'the loading overlay is gone');
    t.diagnostic(`page ready in ${loadMs} ms`);
  });
});

test('pixels: heatmap cells have the colormap colour of their values (devicePixelRatio 1)', async (t) => {
  // tall enough for the whole positions scene, so every heatmap is on the canvas
  await withPage({ viewport: { width: 1280, height: 1800 } }, async (page) => {
    await openDemo(page, 'scene=positions&d_model=8&count=12&length=10');
    const ids = ['positions/table', 'positions/similarity', 'positions/raw'];
    const { worst, maps } = await checkHeatmapPixels(page, ids, { random: 8, seed: 7 });
    const table = byId(maps, 'positions/table');
    assert.equal(table.colormap, 'diverging');
    assert.equal(byId(maps, 'positions/raw').colormap, 'viridis');
    assert.deepEqual([table.rows, table.cols], [12, 8]);
    t.diagnostic(`dpr 1: largest colour difference ${worst}`);
  });
});

test('pixels: a 100 x 64 table with cells of fractional size', async (t) => {
  await withPage({}, async (page) => {
    await openDemo(page, 'scene=positions&d_model=64&count=100&base=100');
    const { worst, maps } = await checkHeatmapPixels(page, ['positions/table'], { random: 40, seed: 5 });
    assert.deepEqual([byId(maps, 'positions/table').rows, byId(maps, 'positions/table').cols], [100, 64]);
    t.diagnostic(`100 x 64: largest colour difference ${worst}`);
  });
});

test('pixels: devicePixelRatio 2 maps cells to device pixels, crisp edges', async (t) => {
  await withPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 }, async (page) => {
    await openDemo(page, 'scene=positions&d_model=8&count=12&length=10');
    const { worst, maps, shot, info } = await checkHeatmapPixels(page, ['positions/table'], { random: 12, seed: 3 });
    assert.equal(info.dpr, 2);
    assert.equal(info.width, 2560, 'canvas backing width = CSS width x 2');
    assert.equal(info.height, 1600, 'canvas backing height = CSS height x 2');
    // Crisp: across a boundary between two cells of clearly different colour, the device pixels right
    // next to it (the last one left of it, the first one right of it) have the two cells' exact colours.
    // A canvas drawn at CSS resolution and upscaled by the browser would blend them over two device
    // pixels, and a heatmap texture sampled with linear filtering would blend over a whole cell.
    const h = byId(maps, 'positions/table');
    const cw = h.rect.w / h.cols, ch = h.rect.h / h.rows;
    let edges = 0;
    const bad = [];
    for (let r = 0; r < h.rows; r++) {
      for (let c = 0; c + 1 < h.cols; c++) {
        const left = expectedColor(tables, h.colormap, h.values[r][c], h.range[0], h.range[1]);
        const right = expectedColor(tables, h.colormap, h.values[r][c + 1], h.range[0], h.range[1]);
        if (Math.max(...left.map((v, i) => Math.abs(v - right[i]))) < 60) continue;
        const bx = (info.left + h.rect.x + (c + 1) * cw) * 2;  // device x of the boundary
        const py = Math.floor((info.top + h.rect.y + (r + 0.5) * ch) * 2);
        // the last device pixel whose centre is left of the boundary, and the first one right of it
        const ia = Math.ceil(bx - 0.5) - 1, ib = Math.floor(bx - 0.5) + 1;
        if (bx - (ia + 0.5) < 0.05 || (ib + 0.5) - bx < 0.05) continue;  // a centre on the edge: either colour is right
        const a = shot.at(ia, py), b = shot.at(ib, py);
        const da = Math.max(...a.map((v, i) => Math.abs(v - left[i])));
        const db = Math.max(...b.map((v, i) => Math.abs(v - right[i])));
        maxColorDiff = Math.max(maxColorDiff, da, db);
        if (da > COLOR_TOLERANCE || db > COLOR_TOLERANCE) {
          bad.push(`row ${r}, cols ${c}|${c + 1} at device x ${bx.toFixed(1)}: rgb(${a}) | rgb(${b}), ` +
                   `expected rgb(${left}) | rgb(${right})`);
        }
        edges++;
      }
    }
    assert.ok(edges >= 10, `enough contrasting cell edges to judge (${edges})`);
    assert.deepEqual(bad, [], 'cell edges are blurred or misplaced at devicePixelRatio 2');
    t.diagnostic(`dpr 2: largest colour difference ${worst}, ${edges} crisp edges`);
  });
});

test('numbers: clock readings and the word + position sums are the lesson\'s', async () => {
  await withPage({}, async (page) => {
    await openDemo(page, 'scene=clock&d_model=4&pos=0');
    const lesson = {
      0: [0, 1, 0, 1],
      1: [0.841, 0.540, 0.010, 1.000],
      2: [0.909, -0.416, 0.020, 1.000],
      3: [0.141, -0.990, 0.030, 1.000],
      44: [0.018, 1.000, 0.426, 0.905],
    };
    for (const [pos, want] of Object.entries(lesson)) {
      await setAndWait(page, { pos: Number(pos) });
      const s = await state(page);
      assert.equal(s.shown.pos, Number(pos));
      assert.deepEqual(s.shown.readings.map(r3), want, `readings at position ${pos}`);
    }
    // 0 and 44: the fast hand nearly repeats, the slow one tells them apart
    await setAndWait(page, { pos: 0, pos2: 44 });
    const { hands, readings2 } = (await state(page)).shown;
    assert.deepEqual(readings2.map(r3), lesson[44]);
    assert.equal(hands.length, 2);
    assert.ok(hands[0].distance < 0.05 && hands[1].distance > 0.4,
      `hand distances 0 vs 44: ${hands.map((h) => h.distance)}`);
    assert.ok(Math.abs(hands[0].wavelength - 2 * Math.PI) < 1e-9 && Math.abs(hands[1].speed - 0.01) < 1e-12);

    await openDemo(page, 'scene=word&emb=0.5,0.2,-0.1,0.3&pos=1&pos2=3');
    const w = (await state(page)).shown;
    assert.deepEqual(w.embedding.map(r3), [0.5, 0.2, -0.1, 0.3]);
    assert.deepEqual(w.sum.map(r3), [1.341, 0.740, -0.090, 1.300], 'cake at position 1');
    assert.deepEqual(w.sum2.map(r3), [0.641, -0.790, -0.070, 1.300], 'cake at position 3');
    await setAndWait(page, { pos: 3 });
    assert.deepEqual((await state(page)).shown.sum.map(r3), [0.641, -0.790, -0.070, 1.300], 'pos slider to 3');
  });
});

test('numbers: the positions heatmaps equal the native CLI (attention_cli pe)', async () => {
  const cli = path.join(REPO, 'build', 'native', 'attention_cli');
  assert.ok(existsSync(cli), `${cli} is missing: run the native build first (./run_tests.sh, or ` +
    'cmake --preset native && cmake --build --preset native)');
  const pe = (...args) => JSON.parse(execFileSync(cli, ['pe', ...args], { encoding: 'utf8' }));
  await withPage({}, async (page) => {
    for (const [d, count, base] of [[8, 12, 10000], [64, 200, 100]]) {
      await openDemo(page, `scene=positions&d_model=${d}&count=${count}&base=${base}&length=10`);
      const maps = await heatmaps(page);
      const table = byId(maps, 'positions/table');
      const want = pe('--scheme', 'sinusoidal', '--d-model', String(d), '--count', String(count), '--base', String(base)).table;
      assert.deepEqual([table.rows, table.cols], [count, d]);
      assert.deepEqual(table.row_labels, [...Array(count).keys()].map(String));
      let worst = 0;
      for (let r = 0; r < count; r++) {
        for (let c = 0; c < d; c++) worst = Math.max(worst, Math.abs(table.values[r][c] - want[r][c]));
      }
      assert.ok(worst <= 1e-6, `d_model ${d}, count ${count}, base ${base}: table differs from the CLI by ${worst}`);
      assert.deepEqual(table.range, [-1, 1]);
      // PE . PE from the CLI's table in float64 against the similarity heatmap
      const sim = byId(maps, 'positions/similarity');
      let simWorst = 0;
      for (let i = 0; i < sim.rows; i++) {
        for (let j = 0; j < sim.cols; j++) {
          const dot = want[i].reduce((acc, x, k) => acc + x * want[j][k], 0);
          simWorst = Math.max(simWorst, Math.abs(sim.values[i][j] - dot) / (d / 2));
        }
      }
      assert.ok(simWorst <= 1e-5, `similarity differs from PE . PE by ${simWorst} (relative to d_model / 2)`);
      // the naive attempt: the raw position numbers 0 .. length - 1
      const raw = byId(maps, 'positions/raw');
      assert.deepEqual(raw.values.map((row) => row[0]), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
  });
});

test('resize: the canvas follows the window and the layout stays inside it', async () => {
  await withPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 }, async (page) => {
    await openDemo(page, 'scene=positions&d_model=8&count=12');
    let info = await canvasInfo(page);
    assert.deepEqual([info.cssW, info.cssH, info.width, info.height], [1280, 800, 2560, 1600]);
    await page.setViewportSize({ width: 900, height: 700 });
    await page.waitForFunction(() => {
      const c = document.getElementById('canvas');
      return c.clientWidth === 900 && c.clientHeight === 700;
    }, null, { timeout: 15000 });
    await waitFrames(page, 3);
    info = await canvasInfo(page);
    assert.deepEqual([info.cssW, info.cssH], [900, 700], 'CSS size follows the window');
    assert.deepEqual([info.width, info.height], [900 * info.dpr, 700 * info.dpr], 'backing size = CSS size x devicePixelRatio');
    const maps = await heatmaps(page);
    for (const h of maps) {
      assert.ok(h.rect.x >= 0 && h.rect.x + h.rect.w <= info.cssW, `${h.id}: ${JSON.stringify(h.rect)} within the width`);
      assert.ok(h.rect.y >= 0, `${h.id}: ${JSON.stringify(h.rect)} below the top`);
    }
    const table = byId(maps, 'positions/table');
    assert.ok(table.rect.y + table.rect.h <= info.cssH, `the table fits the height: ${JSON.stringify(table.rect)}`);
    // and it is still drawn right
    await checkHeatmapPixels(page, ['positions/table'], { random: 6, seed: 11 });
    // back to a larger window
    await page.setViewportSize({ width: 1100, height: 760 });
    await page.waitForFunction(() => document.getElementById('canvas').clientWidth === 1100, null, { timeout: 15000 });
    await waitFrames(page, 3);
    info = await canvasInfo(page);
    assert.deepEqual([info.width, info.height], [2200, 1520]);
  });
});
