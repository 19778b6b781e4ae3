// The URL as the app's state in headless Chromium: a link opens the named scene and settings, set() updates
// the address bar without a reload, bad parameters give notes and defaults, embed=1 hides the chrome, text
// with the rupee sign and curly quotes round-trips; and a browser without WebGL2 gets a clear message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, openDemo, waitReady, setAndWait, api, baseUrl, withCleanPage, heatmapById, state, heatmaps,
} from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

// A fresh context and page; fails the test on any console error or uncaught exception it saw.
const withPage = (options, fn) => withCleanPage(browser, options, fn);
const byId = heatmapById;

test('URL: opens the named scene and settings; follows set() without reloading', async () => {
  await withPage({}, async (page) => {
    await openDemo(page, 'scene=clock&d_model=4&pos=44');
    let s = await state(page);
    assert.equal(s.scene, 'clock');
    assert.equal(s.settings.d_model, '4');
    assert.equal(s.settings.pos, '44');
    assert.deepEqual(s.notes, []);
    assert.equal(s.shown.d_model, 4);
    assert.equal(s.shown.pos, 44);

    await page.evaluate(() => { window.__marker = 'still here'; });
    const result = await setAndWait(page, { pos: 7 });
    assert.equal(result.ok, true);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('pos'), '7', `URL after set({pos: 7}): ${page.url()}`);
    assert.equal(url.searchParams.get('scene'), 'clock');
    assert.equal(url.searchParams.get('d_model'), '4');
    assert.equal(url.pathname, '/index.html', 'path kept');
    assert.equal(await page.evaluate(() => window.__marker), 'still here', 'no reload');
    s = await state(page);
    assert.equal(s.shown.pos, 7);
    assert.equal(url.search, '?' + s.query, 'the address bar holds state().query');

    // the URL reopens the same view
    const copied = page.url();
    await page.goto(copied);
    await waitReady(page);
    const again = await state(page);
    assert.deepEqual(again.settings, s.settings, 'reopening the copied URL gives the same settings');
    assert.deepEqual(again.shown.readings, s.shown.readings);
  });
});

test('URL: malformed and unknown parameters give notes, defaults, and a working page', async () => {
  await withPage({}, async (page) => {
    await openDemo(page, 'scene=clock');
    const defaults = (await state(page)).settings;
    await openDemo(page, 'scene=clock&d_model=abc&bogus=1&pos=12');
    const s = await state(page);
    assert.equal(s.scene, 'clock');
    assert.ok(s.notes.length >= 2, `notes: ${JSON.stringify(s.notes)}`);
    assert.ok(s.notes.some((n) => n.includes('d_model')), `a note names d_model: ${JSON.stringify(s.notes)}`);
    assert.ok(s.notes.some((n) => n.includes('bogus')), `a note names bogus: ${JSON.stringify(s.notes)}`);
    assert.equal(s.settings.d_model, defaults.d_model, 'd_model keeps its default');
    assert.equal(s.settings.pos, '12', 'the good parameter still applies');
    assert.equal(s.error, '');
    // still working
    const r = await setAndWait(page, { d_model: 6 });
    assert.equal(r.ok, true);
    assert.equal((await state(page)).shown.readings.length, 6);
    // set() with a bad value: refused with a note, nothing changes, no crash
    const bad = await setAndWait(page, { d_model: 'abc', nope: 3 });
    assert.equal(bad.ok, false);
    assert.ok(bad.notes.length >= 1, JSON.stringify(bad));
    assert.equal((await state(page)).settings.d_model, '6');
    // a scene that does not exist
    await openDemo(page, 'scene=nowhere&d_model=4');
    const t = await state(page);
    assert.ok(t.notes.some((n) => n.includes('scene')), JSON.stringify(t.notes));
    assert.equal(t.settings.d_model, '4');
  });
});

test('URL: embed=1 hides the menu bar and the scene list', async () => {
  await withPage({}, async (page) => {
    const q = 'scene=positions&d_model=8&count=12';
    await openDemo(page, q);
    const full = byId(await heatmaps(page), 'positions/table');
    assert.equal((await state(page)).settings.embed, '0');
    await openDemo(page, q + '&embed=1');
    const s = await state(page);
    assert.equal(s.settings.embed, '1');
    const embedded = byId(await heatmaps(page), 'positions/table');
    assert.ok(embedded.rect.x < full.rect.x, `no scene list: x ${embedded.rect.x} < ${full.rect.x}`);
    assert.ok(embedded.rect.y < full.rect.y, `no menu bar: y ${embedded.rect.y} < ${full.rect.y}`);
    // a change keeps embed=1 in the URL, so the iframe's view stays bare
    await setAndWait(page, { count: 10 });
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('embed'), '1', page.url());
    assert.equal(url.searchParams.get('count'), '10', page.url());
    assert.equal((await state(page)).settings.embed, '1');
  });
});

test('URL: text with the rupee sign and curly quotes round-trips', async () => {
  const text = 'Refund ₹500 for the “eggless” cake – it’s cold, café';
  const other = '‘Dear’ “team” ₹1,299 & 50% = naïve?';
  await withPage({}, async (page) => {
    await openDemo(page, 'scene=clock&text=' + encodeURIComponent(text));
    let s = await state(page);
    assert.deepEqual(s.notes, []);
    assert.equal(s.settings.text, text, 'percent-encoded UTF-8 from the URL');
    // the form a course page's URLSearchParams writes (spaces as '+')
    await openDemo(page, new URLSearchParams({ scene: 'clock', text: other }).toString());
    s = await state(page);
    assert.equal(s.settings.text, other, 'URLSearchParams encoding');
    // set(): the app holds the new text, and the address bar never keeps an older one (a course author
    // copying the URL would otherwise get a different text back)
    const r = await setAndWait(page, { text });
    assert.equal(r.ok, true);
    s = await state(page);
    assert.equal(s.settings.text, text, 'set({text})');
    const inUrl = new URL(page.url()).searchParams.get('text');
    assert.ok(inUrl === null || inUrl === text,
      `after set({text}) the URL still says text=${JSON.stringify(inUrl)} (state: ${JSON.stringify(s.settings.text)}); ` +
      `URL ${page.url()}, state().query ${s.query}`);
  });
});

test('no WebGL2: a clear message instead of a blank canvas, no uncaught exception', async () => {
  const initScript = () => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      if (String(kind).toLowerCase() === 'webgl2') return null;
      return original.call(this, kind, ...rest);
    };
  };
  await withPage({ initScript }, async (page) => {
    await page.goto(baseUrl() + 'index.html?scene=positions', { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.state === 'no-webgl2', null, { timeout: 15000 });
    const status = page.locator('#status');
    assert.equal(await status.isVisible(), true, 'the message is visible');
    assert.match(await status.innerText(), /WebGL ?2/);
    const message = await page.locator('#message').innerText();
    assert.ok(message.length > 40, `an explanation follows: ${message}`);
    assert.equal(await page.locator('#canvas').isVisible(), false, 'no blank canvas');
    const readyOutcome = await page.evaluate(() => window.attentionDemo.ready.then(() => 'resolved', (e) => 'rejected: ' + e.message));
    assert.match(readyOutcome, /^rejected: .*WebGL/);
    const apiOutcome = await page.evaluate(() => { try { window.attentionDemo.state(); return 'answered'; } catch (e) { return 'threw'; } });
    assert.equal(apiOutcome, 'threw', 'the API says the demo did not start');
  });
});

