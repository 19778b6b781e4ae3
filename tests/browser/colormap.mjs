// The colormaps, computed independently of the app: the key tables are read out of
// src/gfx/colormap.cpp as numbers, and the value -> t -> colour steps are written here from the
// documented rule (t = (v - lo) / (hi - lo), diverging t = 0.5 + 0.5 * v / max(|lo|, |hi|); clamp;
// x = t * (n - 1); mix keys i and i + 1 by x - i), in float64.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const COLORMAP_SOURCE = path.join(REPO, 'src', 'gfx', 'colormap.cpp');

// {viridis: [[r, g, b], ...], cividis: [...], diverging: [...]}, channels in 0..1.
export function parseColormapTables(source = readFileSync(COLORMAP_SOURCE, 'utf8')) {
  const names = { viridis: 'kViridis', cividis: 'kCividis', diverging: 'kDiverging' };
  const tables = {};
  for (const [name, symbol] of Object.entries(names)) {
    const start = new RegExp(`\\b${symbol}\\s*\\[\\s*\\]\\s*\\[\\s*3\\s*\\]\\s*=\\s*\\{`).exec(source);
    if (!start) throw new Error(`${COLORMAP_SOURCE}: no table ${symbol}[][3] = {...}`);
    const end = source.indexOf('};', start.index);
    if (end < 0) throw new Error(`${COLORMAP_SOURCE}: table ${symbol} has no end`);
    const body = source.slice(start.index + start[0].length, end).replace(/\/\/[^\n]*/g, '');
    const keys = [];
    const triple = /\{\s*([-+0-9.eE]+)f?\s*,\s*([-+0-9.eE]+)f?\s*,\s*([-+0-9.eE]+)f?\s*\}/g;
    for (let m; (m = triple.exec(body));) keys.push([Number(m[1]), Number(m[2]), Number(m[3])]);
    // Every '{' of the body must have been read as a key: a format change must fail loudly here.
    const braces = (body.match(/\{/g) || []).length;
    if (keys.length < 2 || keys.length !== braces || keys.flat().some((x) => !Number.isFinite(x))) {
      throw new Error(`${COLORMAP_SOURCE}: could not read ${symbol} (${keys.length} keys, ${braces} braces)`);
    }
    tables[name] = keys;
  }
  return tables;
}

// The position of v on the colormap, before clamping.
export function colormapT(colormap, v, lo, hi) {
  if (colormap === 'diverging') {
    const m = Math.max(Math.abs(lo), Math.abs(hi));
    return m > 0 ? 0.5 + 0.5 * v / m : 0.5;
  }
  const d = hi - lo;
  return d > 0 ? (v - lo) / d : 0.5;
}

// [r, g, b] in 0..1 for t (clamped to 0..1): linear interpolation between neighbouring keys.
export function colormapRgb(keys, t) {
  t = Math.min(1, Math.max(0, Number.isNaN(t) ? 0 : t));
  const n = keys.length;
  const x = t * (n - 1);
  const i = Math.min(Math.floor(x), n - 2);
  const f = x - i;
  return [0, 1, 2].map((c) => keys[i][c] * (1 - f) + keys[i + 1][c] * f);
}

// The 8-bit colour the screen should show for value v of a heatmap with this colormap and range.
export function expectedColor(tables, colormap, v, lo, hi) {
  const keys = tables[colormap];
  if (!keys) throw new Error(`unknown colormap '${colormap}'`);
  return colormapRgb(keys, colormapT(colormap, v, lo, hi)).map((c) => Math.round(c * 255));
}
