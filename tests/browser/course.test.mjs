// The example course page (web/course-example.html) on another origin than the demo, under a strict CSP:
// embed.js sizes each iframe to the demo's content, the handles' set()/state() cross origins, change and
// answer events reach the page, a foreign window's messages change nothing, an off-screen embed draws no
// frame, and the wheel over an embed scrolls the course page. One page load for the whole file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { launchBrowser, baseUrl, watchErrors, waitFrames } from './harness.mjs';

const DEMO_ORIGIN = new URL(baseUrl()).origin;
const FILES = { 'course-example.html': 'text/html', 'course-example.js': 'text/javascript', 'course-example.css': 'text/css',
                'theme.html': 'text/html' };

let browser, context, page, errors, server, courseUrl;

// The course page's files as dist/ ships them, with embed.js loaded from the demo's own site.
async function courseFiles() {
  const files = {};
  for (const name of Object.keys(FILES).filter((n) => n.startsWith('course-example'))) {
    const r = await fetch(baseUrl() + name);
    assert.equal(r.status, 200, `${name} is in dist/`);
    files[name] = await r.text();
  }
  const local = '<script src="embed.js"></script>';
  assert.ok(files['course-example.html'].includes(local), 'the course page loads embed.js by a relative path');
  files['course-example.html'] = files['course-example.html'].replace(local, `<script src="${baseUrl()}embed.js"></script>`);
  // a page with no colour scheme of its own: its embed follows the reader's preference
  files['theme.html'] = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>theme</title><link rel="icon" href="data:,"></head><body>' +
    `<attention-demo id="d" query="?scene=clock&amp;d_model=4" height="300"></attention-demo><script src="${baseUrl()}embed.js"></script></body></html>`;
  return files;
}

// Serves the course page at http://localhost:PORT/ (the demo is at 127.0.0.1: another origin and site).
async function serveCourse(files) {
  const csp = `default-src 'self'; script-src 'self' ${DEMO_ORIGIN}; frame-src ${DEMO_ORIGIN}; style-src 'self'; img-src 'self' data:`;
  server = http.createServer((req, res) => {
    const name = new URL(req.url, 'http://x').pathname.slice(1);
    if (!FILES[name]) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': FILES[name] + '; charset=utf-8', 'Content-Security-Policy': csp });
    res.end(files[name]);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://localhost:${server.address().port}/course-example.html`;
}

// Every attention:layout number the demo dispatches, recorded in each demo frame from its start.
function recordLayouts() {
  window.__layouts = [];
  window.addEventListener('attention:layout', (e) => window.__layouts.push(Number(e.detail)));
}

before(async () => {
  browser = await launchBrowser();
  courseUrl = await serveCourse(await courseFiles());
  context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1, hasTouch: true });
  await context.addInitScript(recordLayouts);
  page = await context.newPage();
  errors = watchErrors(page);
  await page.goto(courseUrl, { waitUntil: 'load' });
  await page.evaluate(() => {
    window.__events = [];
    const clock = document.getElementById('clock').demo;
    for (const name of ['change', 'answer', 'resize']) clock.on(name, (x) => window.__events.push([name, x]));
  });
  // the order scene at the top first, then the clock below it (a cross-origin iframe gets animation
  // frames, hence its first frame, only on screen)
  await page.evaluate(() => document.querySelector('.demo[data-attention-demo^="?scene=order"]').demo.ready.then(() => true));
  await page.evaluate(() => document.getElementById('clock').scrollIntoView());
  await page.evaluate(() => document.getElementById('clock').demo.ready.then(() => true));
});
after(async () => {
  if (context) await context.close();
  if (browser) await browser.close();
  if (server) server.close();
});

const clockFrame = async () => (await page.$('#clock iframe')).contentFrame();
const frameState = (frame) => frame.evaluate(() => window.attentionDemo.state());
const events = (name) => page.evaluate((n) => window.__events.filter((e) => e[0] === n).map((e) => e[1]), name);

// The iframe's CSS size, its document's viewport and the demo's last layout height.
async function sizes(iframeSelector) {
  const iframe = await page.$(iframeSelector);
  await iframe.scrollIntoViewIfNeeded();  // frames come on screen only
  const frame = await iframe.contentFrame();
  await waitFrames(frame, 3);
  const inner = await frame.evaluate(() => ({
    innerHeight: window.innerHeight, layouts: window.__layouts,
    scrollHeight: document.documentElement.scrollHeight, rects: window.attentionDemo.state().rects,
  }));
  return { ...inner, layout: inner.layouts[inner.layouts.length - 1] };
}

// The demo's content fits its iframe exactly: the viewport is the height the app asked for (within the
// 2 px the shell ignores), the app's content ends inside it, and nothing scrolls inside the frame.
function assertFits(s, what) {
  assert.ok(s.layouts.length > 0, `${what}: the demo reported its content height`);
  assert.ok(Math.abs(s.innerHeight - s.layout) <= 2, `${what}: iframe viewport ${s.innerHeight} px, content needs ${s.layout} px`);
  const [, y, , h] = s.rects['scene/content'];
  assert.ok(y + h <= s.innerHeight, `${what}: the content (to ${y + h} px) ends inside the frame (${s.innerHeight} px)`);
  assert.ok(s.scrollHeight <= s.innerHeight, `${what}: no inner scrolling (scrollHeight ${s.scrollHeight})`);
}

test('course page: another origin than the demo, three embeds through embed.js', async () => {
  const origins = await page.evaluate(() => ({
    page: location.origin,
    frames: Array.from(document.querySelectorAll('iframe'), (f) => new URL(f.src).origin),
    handles: Array.from(document.querySelectorAll('.demo'), (d) => !!(d.demo && d.demo.frame)),
  }));
  assert.notEqual(origins.page, DEMO_ORIGIN, 'the course page and the demo have different origins');
  assert.deepEqual(origins.frames, [DEMO_ORIGIN, DEMO_ORIGIN, DEMO_ORIGIN], 'three demo iframes');
  assert.deepEqual(origins.handles, [true, true, true], 'each embed has its handle as element.demo');
  const frame = await clockFrame();
  assert.equal(new URL(frame.url()).origin, DEMO_ORIGIN);
  const s = await frameState(frame);
  assert.equal(s.settings.scene, 'clock');
  assert.equal(s.settings.embed, '1');
  // the lesson reads values back from the demos into its prose
  await page.waitForSelector('#order-readback:not([hidden])', { state: 'attached' });
  const order = await page.evaluate(() => document.querySelector('.demo[data-attention-demo^="?scene=order"]').demo.state());
  const none = order.shown.emails.filter((e) => e.positions === 'none');
  assert.equal(none[0].label, none[1].label, 'without positions both emails get one label');
  assert.match(await page.textContent('#order-verdict'), new RegExp(`both emails the label “${none[0].label}”`));
  assert.equal(await page.textContent('#clock-pos'), '44');
  // the four-head grid below the fold: its handle answers before the learner scrolls to it
  const mha = await page.evaluate(async () => {
    const el = document.querySelector('.demo[data-attention-demo^="?scene=mha"]');
    const s = await el.demo.state();
    return { scene: s.scene, heads: s.settings.heads, below: el.getBoundingClientRect().top - window.innerHeight };
  });
  assert.ok(mha.below > 0, `the mha embed is out of view (${mha.below} px below)`);
  assert.deepEqual([mha.scene, mha.heads], ['mha', '4'], 'state() of an embed never on screen');
});

test('course page: each iframe is as tall as the demo\'s content, after load and after a change', async () => {
  const before = await sizes('#clock iframe');
  assertFits(before, 'clock after load');
  // a setting that makes the content taller: more dimensions, more hands and readings
  const r = await page.evaluate(() => document.getElementById('clock').demo.set({ d_model: 16 }));
  assert.equal(r.ok, true, JSON.stringify(r));
  const frame = await clockFrame();
  await frame.waitForFunction((h) => window.__layouts.length && window.__layouts[window.__layouts.length - 1] > h + 20,
    before.layout, { timeout: 10000 });
  await page.waitForFunction((h) => document.querySelector('#clock iframe').clientHeight > h + 20, before.innerHeight);
  const taller = await sizes('#clock iframe');
  assertFits(taller, 'clock after d_model=16');
  const resizes = await events('resize');
  assert.ok(resizes.some((e) => Math.abs(e.height - taller.layout) <= 2), `a resize event told the page: ${JSON.stringify(resizes)}`);
  await page.evaluate(() => document.getElementById('clock').demo.set({ d_model: 4 }));
  const order = await sizes('.demo[data-attention-demo^="?scene=order"] iframe');
  assertFits(order, 'order scene');
});

test('course page: set() and state() cross origins; the button moves the word; set() fires no change event', async () => {
  await page.evaluate(() => document.getElementById('clock').scrollIntoView());  // state() is the last frame's
  await waitFrames(await clockFrame(), 2);  // on screen again: it draws
  const changesBefore = (await events('change')).length;
  const r = await page.evaluate(() => document.getElementById('clock').demo.set({ pos: 12 }));
  assert.deepEqual(r, { ok: true, notes: [] });
  const s = await page.evaluate(() => document.getElementById('clock').demo.state());
  assert.equal(s.settings.pos, '12', 'state() through the handle sees the new setting');
  assert.equal((await frameState(await clockFrame())).settings.pos, '12', 'the demo itself has it');
  const bad = await page.evaluate(() => document.getElementById('clock').demo.set({ d_model: 'abc' }));
  assert.equal(bad.ok, false, 'a bad value is refused with notes, as in a URL');
  const tooBig = await page.evaluate(() => document.getElementById('clock').demo.set({ text: 'a'.repeat(200001) })
    .then(() => 'resolved', (e) => e.message));
  assert.match(tooBig, /at most 200000/, 'settings over 200,000 characters of JSON are refused');

  await page.click('#move-word');
  await page.waitForFunction(() => document.getElementById('clock-pos').textContent === '45');
  assert.equal((await frameState(await clockFrame())).settings.pos, '45');
  await waitFrames(await clockFrame(), 3);
  assert.equal((await events('change')).length, changesBefore, 'no change event for the page\'s own set()');
});

test('course page: a learner\'s change inside the demo fires change with the new settings', async () => {
  const frame = await clockFrame();
  await page.evaluate(() => document.getElementById('clock').scrollIntoView());
  await waitFrames(frame, 2);  // the slider's rectangle and the iframe's box after the scroll, not before
  const [x, y, w, h] = (await frameState(frame)).rects['clock/position'];
  const box = await (await page.$('#clock iframe')).boundingBox();
  const before = (await frameState(frame)).settings.pos;
  await page.mouse.move(box.x + 1 + x + w * 0.25, box.y + 1 + y + h / 2);  // + the iframe's 1 px border
  await waitFrames(frame, 2);
  await page.mouse.down();
  await waitFrames(frame, 2);
  await page.mouse.up();
  await waitFrames(frame, 3);
  const moved = await frameState(frame);
  assert.notEqual(moved.settings.pos, before, `the click moved the position slider (${before})`);
  await page.waitForFunction(() => window.__events.some((e) => e[0] === 'change'), null, { timeout: 10000 })
    .catch(async (e) => { throw new Error(`no change event: ${JSON.stringify(await page.evaluate(() => window.__events))}`); });
  const change = (await events('change')).at(-1);
  const s = await frameState(frame);
  assert.deepEqual(change, s.settings, 'the change event carries state().settings');
  await page.waitForFunction((p) => document.getElementById('clock-pos').textContent === p, s.settings.pos);
});

test('course page: checking the clock exercise sends an answer event', async () => {
  const frame = await clockFrame();
  await page.evaluate(() => document.getElementById('clock').demo.set({ answer: 44 }));
  // the keyboard walks the controls from the canvas to Check (state().focus names the focused one)
  const box = await (await page.$('#clock iframe')).boundingBox();
  await page.mouse.click(box.x + box.width - 20, box.y + 12);  // the intro text: focuses the canvas, clicks nothing
  await waitFrames(frame, 2);
  const seen = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    await waitFrames(frame, 2);
    const focus = (await frameState(frame)).focus;
    seen.push(focus && focus.label);
    if (focus && focus.label === 'Check') break;
  }
  assert.equal(seen.at(-1), 'Check', `Tab reaches Check: ${JSON.stringify(seen)}`);
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.__events.some((e) => e[0] === 'answer'), null, { timeout: 10000 });
  assert.deepEqual((await events('answer')).at(-1), { which: 'clock', answer: '44', right: true });
  assert.equal((await frameState(frame)).shown.exercise.correct, true, 'the demo shows the answer as right');
});

// The clock iframe's channel id (from its URL's #hash) and its index in window.frames (the order in which
// the frames were made, not their order in the document).
const clockChannel = () => page.evaluate(() => {
  const demo = document.querySelector('#clock iframe');
  return { channel: new URLSearchParams(new URL(demo.src).hash.slice(1)).get('attention-channel'),
           index: Array.from({ length: window.frames.length }, (_, i) => window.frames[i]).indexOf(demo.contentWindow) };
});

// In a foreign window: posts a well-formed set request on the clock's channel to the demo frame, and fake
// demo events and a reply to the course page; collects whatever answers it.
function postForged({ channel, index, demoOrigin, pageOrigin, viaOpener }) {
  const course = viaOpener ? window.opener : window.parent;
  window.__got = [];
  window.addEventListener('message', (e) => window.__got.push(e.data));
  course.frames[index].postMessage({ channel, id: 990001, type: 'set', settings: { pos: 3 } }, demoOrigin);
  course.frames[index].postMessage({ channel, id: 990002, type: 'state' }, demoOrigin);
  course.postMessage({ channel, event: 'change', data: { settings: { pos: '99' } } }, pageOrigin);
  course.postMessage({ channel, event: 'answer', data: { which: 'clock', answer: '1', right: true } }, pageOrigin);
  course.postMessage({ channel, event: 'resize', data: { height: 31 } }, pageOrigin);
}

test('course page: messages from a foreign window change nothing, in either direction', async () => {
  const frame = await clockFrame();
  const { channel, index } = await clockChannel();
  assert.match(channel, /^[0-9a-f]{32}$/, 'a random channel id per embed');
  assert.ok(index >= 0, 'the clock\'s window is one of the course page\'s frames');
  const pageOrigin = new URL(courseUrl).origin;
  const before = await frameState(frame);
  const heightBefore = await page.evaluate(() => document.querySelector('#clock iframe').style.height);
  const eventsBefore = await page.evaluate(() => window.__events.length);

  // a sibling iframe of the course page's own origin (the right origin, the wrong window)
  const siblingHandle = await page.evaluateHandle(() => {
    const f = document.createElement('iframe');
    f.style.height = '10px';
    document.body.appendChild(f);
    return f;
  });
  const sibling = await siblingHandle.contentFrame();
  await sibling.evaluate(postForged, { channel, index, demoOrigin: DEMO_ORIGIN, pageOrigin, viaOpener: false });
  // a popup on the demo's own origin (for the course page: the demo's origin, but not its iframe)
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.evaluate((url) => { window.open(url, 'foreign'); }, baseUrl() + 'page.js'),
  ]);
  await popup.waitForLoadState('load');
  await popup.evaluate(postForged, { channel, index, demoOrigin: DEMO_ORIGIN, pageOrigin, viaOpener: true });
  // the page posting on a wrong channel
  await page.evaluate(([i, origin]) => {
    window.frames[i].postMessage({ channel: 'f'.repeat(32), id: 990003, type: 'set', settings: { pos: 4 } }, origin);
  }, [index, DEMO_ORIGIN]);

  await page.waitForTimeout(500);
  await waitFrames(frame, 3);
  const after = await frameState(frame);
  assert.deepEqual(after.settings, before.settings, 'the demo\'s settings did not change');
  assert.deepEqual(await sibling.evaluate(() => window.__got), [], 'the demo answered nothing to the sibling');
  assert.deepEqual(await popup.evaluate(() => window.__got), [], 'the demo answered nothing to the popup');
  assert.equal(await page.evaluate(() => window.__events.length), eventsBefore, 'the handle fired no event');
  assert.equal(await page.evaluate(() => document.querySelector('#clock iframe').style.height), heightBefore,
    'the forged resize changed nothing');
  // the real channel still works
  const r = await page.evaluate(() => document.getElementById('clock').demo.set({ pos: 44 }));
  assert.equal(r.ok, true);
  await popup.close();
  await siblingHandle.evaluate((f) => f.remove());
});

test('course page: an embed scrolled out of view draws no frame; scrolled back it draws', async () => {
  const frame = await clockFrame();
  await page.evaluate(() => document.getElementById('clock').scrollIntoView());
  await waitFrames(frame, 3);
  // the top of the page: the clock below the fold
  await page.evaluate(() => window.scrollTo(0, 0));
  const below = await page.evaluate(() => document.querySelector('#clock iframe').getBoundingClientRect().top - window.innerHeight);
  assert.ok(below > 0, `the clock is out of view (${below} px below the viewport)`);
  await page.waitForTimeout(300);  // the IntersectionObserver reports it
  const hidden = await frame.evaluate(() => { window.attentionDemo.requestFrames(5); return window.attentionDemo.frameStats().frame; });
  await page.waitForTimeout(2000);
  assert.equal(await frame.evaluate(() => window.attentionDemo.frameStats().frame), hidden, 'no frame drawn off screen');
  await page.evaluate(() => document.getElementById('clock').scrollIntoView());
  await frame.waitForFunction((n) => window.attentionDemo.frameStats().frame > n, hidden, { timeout: 10000, polling: 100 });
});

test('course page: the wheel over an embed scrolls the course page', async () => {
  await page.evaluate(() => { document.getElementById('clock').scrollIntoView(); window.scrollBy(0, -100); });
  const frame = await clockFrame();
  await waitFrames(frame, 3);
  const box = await (await page.$('#clock iframe')).boundingBox();
  const scrollY = await page.evaluate(() => window.scrollY);
  await page.mouse.move(box.x + box.width / 2, box.y + 300);
  await page.mouse.wheel(0, 240);
  await page.waitForFunction((y) => window.scrollY > y + 100, scrollY, { timeout: 5000 });
});

test('course page: a vertical swipe over an embed scrolls the course page and changes no setting', async () => {
  await page.evaluate(() => { document.getElementById('clock').scrollIntoView(); window.scrollBy(0, -100); });
  const frame = await clockFrame();
  await waitFrames(frame, 3);
  const box = await (await page.$('#clock iframe')).boundingBox();
  const before = await frameState(frame);
  const scrollY = await page.evaluate(() => window.scrollY);
  const cdp = await context.newCDPSession(page);
  const x = box.x + box.width / 2, y0 = box.y + 300;
  const at = (y) => [{ x, y, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(y0) });
  for (let k = 1; k <= 6; k += 1) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(y0 - 25 * k) });
    await waitFrames(frame, 1);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await page.waitForFunction((y) => window.scrollY > y + 80, scrollY, { timeout: 5000 });
  await waitFrames(frame, 3);
  assert.equal((await frameState(frame)).query, before.query, 'the swipe changed no setting');
  await cdp.detach();
});

test('course page: an embed takes the page\'s colour scheme and follows the reader\'s preference', async () => {
  // the example lesson names only light (color-scheme: light) on its root
  assert.equal(await page.evaluate(() => new URL(document.querySelector('#clock iframe').src).searchParams.get('theme')), 'light');
  const other = await context.newPage();
  const otherErrors = watchErrors(other);
  try {
    await other.emulateMedia({ colorScheme: 'light' });
    await other.goto(new URL('theme.html', courseUrl).href, { waitUntil: 'load' });
    const theme = () => other.evaluate(() => new URL(document.querySelector('#d iframe').src).searchParams.get('theme'));
    assert.equal(await theme(), 'light', 'no scheme on the page: the reader\'s preference');
    await other.evaluate(() => {
      window.__changes = 0;
      document.getElementById('d').demo.on('change', () => { window.__changes++; });
      return document.getElementById('d').demo.ready.then(() => true);
    });
    const frame = await (await other.$('#d iframe')).contentFrame();
    assert.equal((await frameState(frame)).settings.theme, 'light');
    await other.emulateMedia({ colorScheme: 'dark' });
    await frame.waitForFunction(() => window.attentionDemo.state().settings.theme === 'dark', null, { timeout: 10000, polling: 100 });
    await waitFrames(frame, 3);
    assert.equal(await other.evaluate(() => window.__changes), 0, 'the page\'s own set({theme}) is no learner change');
    assert.deepEqual(otherErrors, []);
  } finally {
    await other.close();
  }
});

test('course page: no console error or uncaught exception on the page or in its demos', () => {
  assert.deepEqual(errors, []);
});
