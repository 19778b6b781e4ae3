// The test's own colormap code (colormap.mjs) against fixed facts, so a misread key table cannot make
// the pixel tests agree with a wrong GPU colour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseColormapTables, colormapT, colormapRgb, expectedColor } from './colormap.mjs';

const tables = parseColormapTables();

test('key tables read from src/gfx/colormap.cpp', () => {
  assert.equal(tables.viridis.length, 52);
  assert.equal(tables.cividis.length, 52);
  assert.equal(tables.diverging.length, 17);
  // matplotlib's ends of viridis and cividis (entries 0 and 255 of its 256-entry tables)
  assert.deepEqual(tables.viridis[0], [0.267004, 0.004874, 0.329415]);
  assert.deepEqual(tables.viridis[51], [0.993248, 0.906157, 0.143936]);
  assert.deepEqual(tables.cividis[0], [0.0, 0.135112, 0.304751]);
  // the diverging map is centred on a neutral grey, blue below and red above
  const mid = tables.diverging[8];
  assert.ok(mid[0] === mid[1] && mid[1] === mid[2] && mid[0] > 0.9, `centre key ${mid}`);
  assert.ok(tables.diverging[0][2] > tables.diverging[0][0], 'low end is blue');
  assert.ok(tables.diverging[16][0] > tables.diverging[16][2], 'high end is red');
  for (const keys of Object.values(tables)) {
    for (const k of keys) assert.ok(k.every((c) => c >= 0 && c <= 1), `key ${k} in 0..1`);
  }
});

test('value -> t follows the documented rule', () => {
  assert.equal(colormapT('viridis', 5, 0, 10), 0.5);
  assert.equal(colormapT('cividis', -2, -2, 6), 0);
  assert.equal(colormapT('viridis', 3, 3, 3), 0.5);  // empty range
  assert.equal(colormapT('diverging', 0, -1, 1), 0.5);
  assert.equal(colormapT('diverging', 2, -4, 1), 0.75);  // symmetric about 0 with the larger end
  assert.equal(colormapT('diverging', -1, -0.5, 1), 0);
});

test('interpolation between keys, clamped at the ends', () => {
  const keys = [[0, 0, 0], [1, 0.5, 0], [1, 1, 1]];
  assert.deepEqual(colormapRgb(keys, 0), [0, 0, 0]);
  assert.deepEqual(colormapRgb(keys, 0.25), [0.5, 0.25, 0]);
  assert.deepEqual(colormapRgb(keys, 0.5), [1, 0.5, 0]);
  assert.deepEqual(colormapRgb(keys, 1), [1, 1, 1]);
  assert.deepEqual(colormapRgb(keys, 7), [1, 1, 1]);
  assert.deepEqual(colormapRgb(keys, -3), [0, 0, 0]);
  // 8-bit colours of real tables: viridis' middle and the diverging map's centre
  assert.deepEqual(expectedColor(tables, 'viridis', 1, 0, 1), [253, 231, 37]);
  assert.deepEqual(expectedColor(tables, 'diverging', 0, -1, 1), [246, 246, 246]);
});
