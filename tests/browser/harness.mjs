// Shared helpers of the browser tests: Debian's Chromium through playwright-core with SwiftShader
// WebGL2 (flags from shared/TOOLCHAIN.md), page loading, frame synchronisation and pixel reads.
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// WebGL 2.0 through ANGLE + SwiftShader as root; no background traffic to the closed network.
const FLAGS = [
  '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
  '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync',
];

// run.sh serves dist/ and passes its address; the tests never start or guess a server themselves.
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

// Waits until the app has rendered n more frames (frameStats().frame advances by n).
export async function waitFrames(page, n = 3, timeout = 30000) {
  const start = await page.evaluate(() => window.attentionDemo.frameStats().frame);
  await page.waitForFunction(
    (target) => window.attentionDemo.frameStats().frame >= target, start + n, { timeout, polling: 'raf' });
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
