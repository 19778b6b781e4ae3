// Hosts that block the demo's download, and the single-file build that needs none: dist/ in an LMS-style
// iframe with sandbox="allow-scripts" (an opaque origin, no CORS header from the server) and opened from
// file:// says in place what blocks it and how to fix it; scripts/single_file.py's one HTML file, made here
// from the dist/ under test, starts from file:// and inside the same sandboxed iframe and shows the clock's
// numbers. One browser, four page loads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchBrowser, baseUrl, waitReady, assertAllClose } from './harness.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = process.env.ATTENTION_DEMO_DIST;
const QUERY = '?scene=clock&d_model=4&pos=44';

let browser, server, lmsOrigin, dir, singleFile;

// An LMS on a second loopback port: a course page whose iframe has sandbox="allow-scripts" only, around the
// demo at ?src= (dist/ on the test server, or the single file from this LMS's uploaded files).
function startLms(single) {
  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://lms');
    if (url.pathname === '/uploads/attention-demo-single.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(single);
    } else if (url.pathname === '/course.html') {
      const src = url.searchParams.get('src').replace(/&/g, '&amp;').replace(/"/g, '&quot;');
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>LMS</title>' +
        '<link rel="icon" href="data:,"></head><body>' +
        `<iframe sandbox="allow-scripts" src="${src}" width="900" height="640" title="demo"></iframe></body></html>`);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

before(async () => {
  assert.ok(DIST, 'ATTENTION_DEMO_DIST names the dist/ folder under test (tests/browser/run.sh sets it)');
  dir = mkdtempSync(path.join(os.tmpdir(), 'attention-single-'));
  singleFile = path.join(dir, 'attention-demo-single.html');
  const made = spawnSync('python3', [path.join(ROOT, 'scripts', 'single_file.py'), DIST, singleFile], { encoding: 'utf8' });
  assert.equal(made.status, 0, `scripts/single_file.py ${DIST} failed: ${made.stderr}`);
  browser = await launchBrowser();
  lmsOrigin = await startLms(readFileSync(singleFile));
});
after(async () => {
  if (browser) await browser.close();
  if (server) server.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// A fresh page at `url`; every request it makes is recorded.
async function open(url) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 760 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url, { waitUntil: 'load' });
  return { context, page, requests };
}

// The demo's frame: the page itself, or the one iframe of an LMS page.
async function demoFrame(page) {
  const handle = await page.$('iframe');
  return handle ? handle.contentFrame() : page.mainFrame();
}

// The overlay once the page has given up: data-state and the message's text.
async function failure(frame) {
  await frame.waitForFunction(() => document.body.classList.contains('failed'), null, { timeout: 30000 });
  return frame.evaluate(() => ({ state: document.body.getAttribute('data-state'),
                                 text: document.getElementById('overlay').innerText }));
}

// The clock's readings at position 44 for d_model 4: the lesson's sin / cos.
async function assertClock(frame, what) {
  await waitReady(frame);
  const s = await frame.evaluate(() => window.attentionDemo.state());
  assert.equal(s.scene, 'clock', what);
  const want = [Math.sin(44), Math.cos(44), Math.sin(44 / 100), Math.cos(44 / 100)];
  assertAllClose(s.shown.readings, want, `${what}: the clock's readings at position 44`);
}

test('dist/ in a sandboxed iframe (no allow-same-origin) names the cause: CORS header, allow-same-origin or the single file', async () => {
  const { context, page } = await open(`${lmsOrigin}/course.html?src=${encodeURIComponent(baseUrl() + 'index.html' + QUERY)}`);
  try {
    const frame = await demoFrame(page);
    assert.equal(await frame.evaluate(() => self.origin), 'null', 'the sandboxed demo has an opaque origin');
    const { state, text } = await failure(frame);
    assert.equal(state, 'blocked-sandbox', text);
    for (const words of ['sandbox', 'allow-same-origin', 'Access-Control-Allow-Origin', 'attention-demo-single.html']) {
      assert.ok(text.includes(words), `the message names ${words}: ${text}`);
    }
    assert.doesNotMatch(text, /connection/, 'it does not blame the connection');
  } finally {
    await context.close();
  }
});

test('dist/ opened from file:// says browsers block it and names the single file and a local server', async () => {
  const { context, page } = await open(pathToFileURL(path.join(DIST, 'index.html')).href + QUERY);
  try {
    const { state, text } = await failure(page.mainFrame());
    assert.equal(state, 'blocked-file', text);
    for (const words of ['file://', 'attention-demo-single.html', 'python3 -m http.server']) {
      assert.ok(text.includes(words), `the message names ${words}: ${text}`);
    }
  } finally {
    await context.close();
  }
});

test('the single file opens from file:// and shows the clock, with no request but itself', async () => {
  const url = pathToFileURL(singleFile).href + QUERY;
  const { context, page, requests } = await open(url);
  try {
    await assertClock(page.mainFrame(), 'single file from file://');
    assert.deepEqual(requests, [url], 'the page requested nothing but itself');
  } finally {
    await context.close();
  }
});

test('the single file from an LMS upload runs inside sandbox="allow-scripts"', async () => {
  const src = `${lmsOrigin}/uploads/attention-demo-single.html${QUERY}`;
  const { context, page, requests } = await open(`${lmsOrigin}/course.html?src=${encodeURIComponent(src)}`);
  try {
    const frame = await demoFrame(page);
    assert.equal(await frame.evaluate(() => self.origin), 'null', 'the sandboxed demo has an opaque origin');
    await assertClock(frame, 'single file in a sandboxed iframe');
    assert.deepEqual(requests.filter((r) => !r.startsWith(`${lmsOrigin}/course.html`)), [src],
      'the iframe requested nothing but the file');
  } finally {
    await context.close();
  }
});
