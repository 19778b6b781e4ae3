// Figures on a course page (embed.js's default view=figure) in a 760 px column on another origin: four heads
// in one row, the clock and the position table without paragraphs, each iframe settled (no resize, no frame
// while idle), the same at a phone's 390 px; and the keyboard: the page's focus never moves on load, Tab
// walks into a figure, through its controls and out to the next link, Shift+Tab walks back out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { launchBrowser, baseUrl, watchErrors, waitFrames } from './harness.mjs';

const IDLE_MS = 10000;
let browser, server, pageUrl;

// A course page: a link, the multi-head figure, a paragraph with a link, the clock and the position table,
// in a column `width` px wide.
function coursePage() {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Figures</title>
<link rel="icon" href="data:,"><style>body{margin:0} main{width:var(--w);margin:0 auto;padding:0}</style></head>
<body><main>
<p><a id="before" href="#before">A link before the figures</a></p>
<div id="mha" data-attention-demo="?scene=mha&amp;heads=4" data-title="Four heads"></div>
<p>Compare the heads. <a id="after" href="#after">The next paragraph's link</a></p>
<div id="clock" data-attention-demo="?scene=clock&amp;d_model=4&amp;pos=44" data-title="The clock"></div>
<div id="table" data-attention-demo="?scene=positions" data-title="The position table"></div>
</main><script src="${baseUrl()}embed.js"></script></body></html>`;
}

before(async () => {
  browser = await launchBrowser();
  server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(coursePage());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://localhost:${server.address().port}/course.html`;  // another origin than the demo
});
after(async () => {
  if (browser) await browser.close();
  if (server) server.close();
});

// Opens the course page with its column `column` px wide; resolves once the named embed has drawn.
async function openCourse(viewport, column, touch = false) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, hasTouch: touch, isMobile: touch });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.addInitScript((w) => {
    document.addEventListener('DOMContentLoaded', () => document.documentElement.style.setProperty('--w', w + 'px'));
  }, column);
  await page.goto(pageUrl, { waitUntil: 'load' });
  return { context, page, errors };
}

async function ready(page, id) {
  await page.evaluate((i) => document.getElementById(i).scrollIntoView(), id);
  await page.evaluate((i) => document.getElementById(i).demo.ready.then(() => true), id);
  const frame = await (await page.$(`#${id} iframe`)).contentFrame();
  await waitFrames(frame, 3);
  return frame;
}

// Over `ms` of no input: how often the iframe's height changed and how many frames the demo drew.
async function idle(page, frame, id, ms) {
  await page.waitForTimeout(1000);  // the frames asked for by the last waitFrames have been drawn
  const before = await frame.evaluate(() => window.attentionDemo.frameStats().frame);
  const resizes = await page.evaluate(([i, t]) => new Promise((resolve) => {
    const el = document.querySelector(`#${i} iframe`);
    let n = 0;
    const seen = new ResizeObserver(() => { n += 1; });
    seen.observe(el);
    setTimeout(() => { seen.disconnect(); resolve(n - 1); }, t);  // the observer's first call is its start
  }), [id, ms]);
  const frames = (await frame.evaluate(() => window.attentionDemo.frameStats().frame)) - before;
  return { resizes, frames };
}

async function heights(page, id) {
  return page.evaluate((i) => document.querySelector(`#${i} iframe`).getBoundingClientRect().height, id);
}

test('figure: at a 760 px column four heads are one row at most 500 px tall; idle, nothing resizes or draws', async (t) => {
  const { context, page, errors } = await openCourse({ width: 1280, height: 800 }, 760);
  try {
    const frame = await ready(page, 'mha');
    const maps = await frame.evaluate(() => window.attentionDemo.heatmaps({ values: false }));
    assert.equal(maps.length, 4, 'four head grids');
    const ys = maps.map((h) => Math.round(h.rect.y));
    assert.ok(Math.max(...ys) - Math.min(...ys) <= 1, `one row: grid tops ${ys.join(', ')}`);
    for (const h of maps) assert.ok(h.rect.w / h.cols >= 6, `${h.id}: ${(h.rect.w / h.cols).toFixed(1)} px per cell`);
    const height = await heights(page, 'mha');
    assert.ok(height <= 500, `the figure is ${height} px tall`);
    const s = await frame.evaluate(() => window.attentionDemo.state());
    assert.equal(s.settings.view, 'figure', 'embed.js asks for the figure view');
    assert.deepEqual(s.texts, [], `no paragraphs: ${JSON.stringify(s.texts).slice(0, 300)}`);
    assert.ok(s.rects['section/controls'], 'its settings are there');
    const quiet = await idle(page, frame, 'mha', IDLE_MS);
    assert.deepEqual(quiet, { resizes: 0, frames: 0 }, `${IDLE_MS / 1000} s idle`);
    t.diagnostic(`760 px column: four heads in one row, ${height} px tall, ${maps[0].rect.w.toFixed(0)} px grids`);

    const clock = await ready(page, 'clock');
    const c = await clock.evaluate(() => window.attentionDemo.state());
    assert.ok(c.rects['section/dials'] && c.rects['section/readings'], 'the clock shows its dials and readings');
    assert.deepEqual(c.texts, [], 'the clock figure has no paragraphs');
    assert.ok(!c.rects['section/exercise'] && !c.rects['section/compare'], 'nor the clock scene\'s other sections');
    const table = await ready(page, 'table');
    const tm = await table.evaluate(() => window.attentionDemo.heatmaps({ values: false }));
    assert.ok(tm.some((h) => h.id.startsWith('positions/')), `the position table: ${tm.map((h) => h.id).join(', ')}`);
    for (const id of ['clock', 'table']) {
      const f = id === 'clock' ? clock : table;
      const q = await idle(page, f, id, 2000);
      assert.deepEqual(q, { resizes: 0, frames: 0 }, `${id}: 2 s idle`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('figure: on a 390 px phone the four heads settle too, no grid under 6 px per cell', async (t) => {
  const { context, page, errors } = await openCourse({ width: 390, height: 844 }, 390, true);
  try {
    const frame = await ready(page, 'mha');
    const maps = await frame.evaluate(() => window.attentionDemo.heatmaps({ values: false }));
    assert.equal(maps.length, 4);
    for (const h of maps) {
      const r = h.rect;
      assert.ok(r.x >= 0 && r.x + r.w <= 390, `${h.id} is inside the column (${r.x}..${r.x + r.w})`);
      assert.ok(r.w / h.cols >= 6, `${h.id}: ${(r.w / h.cols).toFixed(1)} px per cell`);
    }
    // tap targets at least 24 CSS px (WCAG 2.5.8): the steppers and the section header
    const rects = (await frame.evaluate(() => window.attentionDemo.state())).rects;
    const targets = Object.keys(rects).filter((k) => /^(increase|decrease) |^section\//.test(k));
    assert.ok(targets.length >= 5, `steppers and a section header: ${targets.join(', ')}`);
    for (const k of targets) {
      const [, , w, hgt] = rects[k];
      assert.ok(w >= 24 && hgt >= 24, `${k} is ${w} x ${hgt} CSS px`);
    }
    const rows = new Set(maps.map((h) => Math.round(h.rect.y))).size;
    const quiet = await idle(page, frame, 'mha', IDLE_MS);
    assert.deepEqual(quiet, { resizes: 0, frames: 0 }, `${IDLE_MS / 1000} s idle at 390 px`);
    t.diagnostic(`390 px: ${rows} row(s) of heads, ${await heights(page, 'mha')} px tall`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

// Where the keyboard focus is: the course page's element, and inside the first figure its control.
async function where(page, frame) {
  // Into an iframe of another origin the focus goes through the browser: until the iframe's process has
  // taken it, the course page's activeElement is its body (on 2 busy cores, seconds). Every stop of the walk
  // is a link or the iframe, so the body is waited through (about 8 s at most).
  let outer;
  for (let i = 0; i < 40; i++) {
    outer = await page.evaluate(() => {
      const a = document.activeElement;
      return a.tagName === 'IFRAME' ? a.closest('[data-attention-demo]').id : a.id || a.tagName;
    });
    if (outer !== 'BODY') break;
    await page.waitForTimeout(200);
  }
  if (outer !== 'mha') return { outer };
  // The iframe's document takes the focus a moment after the iframe, and the app shows a focus that came into
  // the canvas in its next frames: up to about 8 s until an element has the focus and, on the canvas, a
  // control has it (a press recorded as BODY or canvas means the focus was lost there for that long).
  let at;
  for (let i = 0; i < 30; i++) {
    await waitFrames(frame, 2);
    at = await frame.evaluate(() => {
      const inner = document.activeElement;
      const f = window.attentionDemo.state().focus;
      return { outer: 'mha', inner: inner.id || inner.tagName, label: inner.id === 'canvas' && f ? f.label : null };
    });
    if (at.inner !== 'BODY' && (at.inner !== 'canvas' || at.label)) break;
    await page.waitForTimeout(200);
  }
  return at;
}

// Presses `key` until the course page's element `stop` has the focus (at most 40 times): where each press
// left the focus.
async function walkUntil(page, frame, key, stop) {
  const walk = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press(key);
    const at = await where(page, frame);
    walk.push(at.label || at.inner || at.outer);
    if (at.outer === stop) break;
  }
  return walk;
}
// The app's controls in a walk (without the links, the canvas itself and the figure-data region).
const onlyControls = (walk) => walk.filter((w) => !['before', 'after', 'figure-data', 'canvas', 'BODY'].includes(w));

test('keyboard: the focus stays put on load; Tab walks into a figure, through its controls, out to the next link, and Shift+Tab back', async (t) => {
  const { context, page, errors } = await openCourse({ width: 1280, height: 800 }, 760);
  try {
    const frame = await ready(page, 'mha');
    await ready(page, 'clock');
    await page.evaluate(() => window.scrollTo(0, 0));
    assert.equal(await page.evaluate(() => document.activeElement.tagName), 'BODY', 'no embed took the focus');
    assert.notEqual(await frame.evaluate(() => document.activeElement.id), 'canvas', 'nor inside the iframe');

    await page.focus('#before');
    const walk = await walkUntil(page, frame, 'Tab', 'after');
    assert.equal(walk[walk.length - 1], 'after', `Tab reached the next paragraph's link: ${walk.join(' > ')}`);
    const controls = onlyControls(walk);
    assert.ok(new Set(controls).size >= 4, `Tab walked the figure's controls: ${walk.join(' > ')}`);
    for (const name of ['d_model', 'heads', 'seed', 'head 0 of 4']) assert.ok(controls.includes(name), `${name} on the way: ${walk.join(' > ')}`);
    const box = walk.indexOf('INPUT');
    assert.ok(box >= 0 && walk[box + 1] === 'd_model',
      `Tab goes into the text box, and from it on to the next control: ${walk.join(' > ')}`);
    t.diagnostic(`Tab: before > ${walk.join(' > ')}`);

    const back = await walkUntil(page, frame, 'Shift+Tab', 'before');
    assert.equal(back[back.length - 1], 'before', `Shift+Tab walked back out: ${back.join(' < ')}`);
    const backControls = onlyControls(back);
    assert.deepEqual(backControls, controls.slice().reverse(),
      `Shift+Tab visits the same controls in reverse: ${walk.join(' > ')} / ${back.join(' < ')}`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
