// Shared helpers of the browser tests: Debian's Chromium through playwright-core with SwiftShader
// WebGL2 (the flags below), page loading, frame synchronisation and pixel reads, heatmap
// geometry, and numbers against the native CLI (build/native/attention_cli) within a tolerance.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// WebGL 2.0 through ANGLE + SwiftShader as root; no background traffic to the closed network.
export const FLAGS = [
  '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
  '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync',
];

// run.sh serves dist/ and passes its address; the tests never guess a server (only precompressed.test.mjs
// runs its own static host, over the folder run.sh names in ATTENTION_DEMO_DIST).
export function baseUrl() {
  const url = process.env.ATTENTION_DEMO_URL;
  if (!url) throw new Error('ATTENTION_DEMO_URL is not set: run the browser tests with tests/browser/run.sh');
  return url.endsWith('/') ? url : url + '/';
}

// One browser for the whole file. Playwright gives every launch a fresh temporary profile folder
// (its own --user-data-dir) and removes it on close.
export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

// Collects what a page reports as wrong: console errors and uncaught exceptions.
export function watchErrors(page) {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e && e.stack || e}`));
  page.on('crash', () => errors.push('the page crashed'));
  return errors;
}

// Opens index.html?query, waits for attentionDemo.ready and 3 rendered frames.
export async function openDemo(page, query = '') {
  const q = query && !query.startsWith('?') ? '?' + query : query;
  await page.goto(baseUrl() + 'index.html' + q, { waitUntil: 'load' });
  await waitReady(page);
}

// Waits for attentionDemo.ready (at most `timeout` ms, then fails with the page's own status line),
// then for 3 rendered frames.
export async function waitReady(page, timeout = 60000) {
  await page.evaluate((ms) => Promise.race([
    window.attentionDemo.ready.then(() => true),
    new Promise((resolve, reject) => setTimeout(() => reject(new Error(
      `attentionDemo.ready did not resolve within ${ms} ms; the page says: ` +
      (document.getElementById('status') || document.body).textContent)), ms)),
  ]), timeout);
  await waitFrames(page, 3);
}

// Asks the app for n frames and waits until it has drawn them (frameStats().frame advances by n) and used
// all input so far (ImGui spreads fast typing over frames) and finished any long computation (spread over
// frames too). The app draws only on input, animation or
// request, so without the request an idle page would never advance.
export async function waitFrames(page, n = 3, timeout = 30000) {
  const start = await page.evaluate((count) => {
    const frame = window.attentionDemo.frameStats().frame;
    window.attentionDemo.requestFrames(count);
    return frame;
  }, n);
  await page.waitForFunction(
    (target) => {
      const fs = window.attentionDemo.frameStats();
      return fs.frame >= target && !fs.input_pending && !fs.computing;
    }, start + n, { timeout, polling: 'raf' });
  return start + n;
}

// set(settings) through the page's API, then n rendered frames.
export async function setAndWait(page, settings, n = 3) {
  const result = await page.evaluate((s) => window.attentionDemo.set(s), settings);
  await waitFrames(page, n);
  return result;
}

export function api(page, fn, ...args) {
  return page.evaluate(([name, a]) => window.attentionDemo[name](...a), [fn, args]);
}

// attentionDemo.state() and attentionDemo.heatmaps() of the page.
export const state = (page) => api(page, 'state');
export const heatmaps = (page) => api(page, 'heatmaps');

// The page survived what a test threw at it: a setting still applies (the clock at position 7) and the page
// still says it is ready.
export async function assertStillRuns(page) {
  const r = await setAndWait(page, { scene: 'clock', pos: 7 });
  assert.equal(r.ok, true, JSON.stringify(r));
  const s = await state(page);
  assert.equal(s.scene, 'clock');
  assert.equal(s.settings.pos, '7');
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
}

// A decoded screenshot of the viewport: {width, height, data (RGBA), at(x, y) -> [r, g, b]} in device pixels.
export async function screenshot(page) {
  const png = PNG.sync.read(await page.screenshot({ type: 'png', animations: 'allow', caret: 'initial' }));
  return {
    width: png.width,
    height: png.height,
    at(x, y) {
      if (x < 0 || y < 0 || x >= png.width || y >= png.height) throw new Error(`pixel (${x}, ${y}) is outside the shot`);
      const i = (y * png.width + x) * 4;
      return [png.data[i], png.data[i + 1], png.data[i + 2]];
    },
  };
}

// A small deterministic generator for "random" sample cells (same picks on every run).
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------------
// Geometry of a heatmap on the page (heatmaps()[i].rect is in CSS px relative to the canvas).

// The canvas's place and size: CSS box, backing store size, devicePixelRatio, window size.
export async function canvasInfo(page) {
  return page.evaluate(() => {
    const c = document.getElementById('canvas');
    const r = c.getBoundingClientRect();
    return { left: r.left, top: r.top, cssW: r.width, cssH: r.height, width: c.width, height: c.height,
             dpr: window.devicePixelRatio, innerW: window.innerWidth, innerH: window.innerHeight,
             visible: getComputedStyle(c).visibility !== 'hidden' };
  });
}

// The centre of cell (row, col) of heatmap h in page CSS px (what page.mouse.move takes).
export function cellCentre(info, h, row, col) {
  const [row0, col0, rows, cols] = h.window ?? [0, 0, h.rows, h.cols];  // the part of the matrix drawn
  return { x: info.left + h.rect.x + (col - col0 + 0.5) * h.rect.w / cols,
           y: info.top + h.rect.y + (row - row0 + 0.5) * h.rect.h / rows };
}

// The heatmap with this id from a heatmaps() list; fails naming the ids that were drawn.
export function heatmapById(maps, id) {
  const h = maps.find((m) => m.id === id);
  if (!h) throw new Error(`heatmap ${id} was not drawn (drawn: ${maps.map((m) => m.id).join(', ') || 'none'})`);
  return h;
}

// ---------------------------------------------------------------------------------------------------
// Numbers: the page (wasm, float32) against the native CLI (float32, other instruction order).

export const NUMBER_TOLERANCE = { atol: 1e-5, rtol: 1e-4 };

// Compares two equally nested arrays of numbers (or two numbers) element by element: |got - want| <=
// atol + rtol * |want|. Fails with the count of differing numbers, the largest difference (and where it
// is) and the first few offenders; shapes must match. Returns {maxDiff, where, count} for diagnostics.
export function assertAllClose(got, want, what, { atol, rtol } = NUMBER_TOLERANCE) {
  const report = { maxDiff: 0, where: '', count: 0 };
  const bad = [], shape = [];
  const walk = (g, w, at) => {
    if (Array.isArray(w)) {
      if (!Array.isArray(g) || g.length !== w.length) {
        shape.push(`${at || 'top'}: ${Array.isArray(g) ? g.length : typeof g} vs ${w.length} entries`);
        return;
      }
      w.forEach((x, i) => walk(g[i], x, `${at}[${i}]`));
      return;
    }
    report.count++;
    if (typeof w !== 'number' || typeof g !== 'number') {
      if (g !== w) bad.push(`${at}: ${JSON.stringify(g)} vs ${JSON.stringify(w)}`);
      return;
    }
    const d = Math.abs(g - w);
    if (!(d <= report.maxDiff)) Object.assign(report, { maxDiff: d, where: `${at} (${g} vs ${w})` });
    if (!(d <= atol + rtol * Math.abs(w))) bad.push(`${at}: ${g} vs ${w} (off by ${d})`);
  };
  walk(got, want, '');
  if (shape.length) throw new Error(`${what}: shapes differ: ${shape.slice(0, 5).join('; ')}`);
  if (bad.length) {
    throw new Error(`${what}: ${bad.length} of ${report.count} numbers differ beyond abs ${atol} + rel ${rtol}; ` +
      `largest difference ${report.maxDiff} at ${report.where}; first: ${bad.slice(0, 4).join('; ')}`);
  }
  return report;
}

// The native command-line tool (build/native/attention_cli), run synchronously.
export const CLI_PATH = process.env.ATTENTION_CLI ||
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'native', 'attention_cli');

// Runs `attention_cli ...args` (stdin: `input`, JSON-encoded when an object) and returns its JSON output;
// fails with the tool's own error line.
export function cli(args, input) {
  if (!existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} is missing: build it first (./run_tests.sh, or cmake --preset native && ` +
                    'cmake --build --preset native)');
  }
  const r = spawnSync(CLI_PATH, args, { input: typeof input === 'string' ? input : JSON.stringify(input ?? {}),
                                        encoding: 'utf8', maxBuffer: 256 << 20 });
  if (r.status !== 0) {
    const e = new Error(`attention_cli ${args.join(' ')} exited with ${r.status}: ${r.stderr.trim()}`);
    e.stderr = r.stderr;
    e.status = r.status;
    throw e;
  }
  return JSON.parse(r.stdout);
}

// `attention_cli attend --input -` for a text: tokens, weights (H x T x T), scores, stats, output.
export function cliAttend(settings) {
  return cli(['attend', '--input', '-'], settings);
}

// Runs fn(page, errors) in a fresh context of `browser` (default viewport 1280 x 800, deviceScaleFactor 1;
// other Playwright context options and an `initScript` may be given), then fails when the page reported a
// console error or an uncaught exception.
export async function withCleanPage(browser, { initScript, ...options }, fn) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, ...options });
  try {
    if (initScript) await context.addInitScript(initScript);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await fn(page, errors);
    assert.deepEqual(errors, [], 'the page reported errors');
  } finally {
    await context.close();
  }
}
