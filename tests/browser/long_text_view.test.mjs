// The text view of long inputs in the multi-head scene: 207 tokens x 16 heads open as text (no grid under
// 3 px per cell) whose word boxes have the colormap colour of the query's weights; the grids open on a
// readable window around the query with plain word labels; the find box jumps to a word (and says when
// none matches); at 1,024 tokens on a phone nothing is cut at the right edge.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, canvasInfo, launchBrowser, openDemo, screenshot, setAndWait, waitFrames, withCleanPage, state } from './harness.mjs';
import { expectedColor, parseColormapTables } from './colormap.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const words = ['refund', 'the', 'delivery', 'fee', 'not', 'cake', 'it', 'was', 'cold', 'late', 'please'];
// n tokens of the words above, with `zebra` at token `at`
const text = (n, at = -1) => Array.from({ length: n }, (_, i) => (i === at ? 'zebra' : words[i % words.length])).join(' ');
const tables = parseColormapTables();

// Heatmaps of the scene drawn on screen whose cells are under `px` CSS px wide or tall.
async function smallCells(page, px) {
  const maps = await api(page, 'heatmaps', { values: false });
  return maps.filter((m) => m.visible && m.id.startsWith('mha/'))
    .filter((m) => m.rect.w / m.window[3] < px || m.rect.h / m.window[2] < px)
    .map((m) => `${m.id}: ${m.window[3]} x ${m.window[2]} cells in ${m.rect.w.toFixed(0)} x ${m.rect.h.toFixed(0)} px`);
}

// Each reported word box of the text view's first head (the query's own, outlined, aside) shows the
// colormap colour of its weight at its left edge (inside the padding, no glyph there).
async function assertWordColours(page, s) {
  const v = s.shown.text_view, info = await canvasInfo(page), shot = await screenshot(page);
  const row = s.shown.row.weights[v.heads[0]];
  const bad = [];
  let compared = 0;
  v.tokens.forEach((j, k) => {
    const [x, y, w, h] = v.boxes[k];
    if (j === v.query || y < 0 || y + h > info.cssH) return;
    assert.ok(Math.abs(v.weights[k] - row[j]) < 1e-6, `token ${j}: the text view's weight is the row's`);
    const got = shot.at(Math.floor((info.left + x + 1) * info.dpr), Math.floor((info.top + y + h / 2) * info.dpr));
    const want = expectedColor(tables, s.settings.colormap, row[j], 0, v.hi[0]);
    compared++;
    if (Math.max(...got.map((g, i) => Math.abs(g - want[i]))) > 2) bad.push(`token ${j} (${row[j]}): rgb(${got}) not rgb(${want})`);
  });
  assert.deepEqual(bad, [], 'word boxes have the colour of their weights');
  assert.ok(compared >= 10, `enough words compared: ${compared}`);
}

test('207 tokens x 16 heads: text by default, shaded by the query\'s weights; grids open on a readable window', async () => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=mha');
    await setAndWait(page, { d_model: 64, heads: 16, text: text(207), row: 100 });
    let s = await state(page);
    assert.equal(s.shown.tokens.length, 207);
    const v = s.shown.text_view;
    assert.ok(v, 'the heads are shown as text');
    assert.deepEqual(v.heads, [...Array(16).keys()], 'one block per head');
    assert.equal(v.query, 100);
    assert.ok(v.first <= 100 && v.last >= 100, `head 0's words hold the query: ${v.first}..${v.last}`);
    assert.deepEqual(await smallCells(page, 3), [], 'no grid under 3 px per cell');
    for (let h = 0; h < 16; h++) {  // each block's colours end at its head's largest weight for the query
      assert.ok(Math.abs(v.hi[h] - Math.max(...s.shown.row.weights[h])) < 1e-6, `head ${h}'s range`);
      assert.ok(s.texts.some((t) => t.startsWith(`head ${h} puts most weight on `)), `head ${h}'s title`);
    }
    await page.mouse.move(5, 5);
    await waitFrames(page, 3);
    await assertWordColours(page, s);

    // hovering a word says its weight; a click makes it the query
    const k = v.tokens.indexOf(104), [x, y, w, h] = v.boxes[k], info = await canvasInfo(page);
    await page.mouse.move(info.left + x + w / 2, info.top + y + h / 2);
    await waitFrames(page, 3);
    s = await state(page);
    assert.deepEqual(s.shown.text_view.hover, [0, 104]);
    assert.ok(s.rects['tooltip/text_view'], 'a tooltip');
    await page.mouse.click(info.left + x + w / 2, info.top + y + h / 2);
    await waitFrames(page, 3);
    s = await state(page);
    assert.equal(s.settings.row, '104', 'the clicked word is the query');
    assert.equal(s.shown.text_view.query, 104);

    // the grids: a window around the query at 6 px per cell or more, labelled with the words themselves
    await setAndWait(page, { heads_view: 'grid' });
    const maps = (await api(page, 'heatmaps', { values: false })).filter((m) => m.id.startsWith('mha/head'));
    assert.equal(maps.length, 16);
    for (const m of maps) {
      const [r0, c0, n] = m.window;
      assert.ok(n < 207 && m.rect.w / n >= 6, `${m.id}: ${n} tokens in ${m.rect.w} px`);
      assert.ok(r0 <= 104 && 104 < r0 + n && c0 <= 104 && 104 < c0 + n, `${m.id} holds the query: ${m.window}`);
      assert.ok(m.row_labels.slice(r0, r0 + n).every((l) => words.includes(l)), `${m.id}: plain word labels`);
    }
    assert.deepEqual((await state(page)).shown.window.slice(0, 3), maps[0].window.slice(0, 3));
    assert.deepEqual(await smallCells(page, 3), []);
  });
});

test('the find box selects the first token with the word, Enter the next, and the view moves to it', async () => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=mha&heads_view=text&head=0');
    await setAndWait(page, { text: text(700, 600), row: 0 });
    const find = page.locator('input.field[aria-label="find a word"]');
    assert.equal(await find.count(), 1, 'a find box');
    let s = await state(page);
    assert.ok(s.shown.text_view.last < 600, `the box opens at the start: ${s.shown.text_view.last}`);
    await find.fill('ZEBRA');
    await waitFrames(page, 4);
    s = await state(page);
    assert.equal(s.settings.row, '600', 'the token holding the word, in any case');
    const box = s.rects['mha/text'], v = s.shown.text_view;
    const k = v.tokens.indexOf(600);
    assert.ok(k >= 0, `token 600 is drawn in the scrolled box: ${v.first}..${v.last}`);
    const [, y, , h] = v.boxes[k];
    assert.ok(y >= box[1] && y + h <= box[1] + box[3] && y + h <= 800, `on screen: ${y} in ${box}`);
    assert.ok(s.texts.some((t) => t === 'token 600, match 1 of 1'), 'it says which match');

    await find.fill('cold');
    await waitFrames(page, 4);
    assert.equal((await state(page)).settings.row, '8', 'the first "cold"');
    await find.press('Enter');
    await waitFrames(page, 4);
    s = await state(page);
    assert.equal(s.settings.row, '19', 'Enter goes to the next "cold"');
    const count = s.shown.tokens.filter((t) => t === 'cold').length;
    assert.ok(s.texts.includes(`token 19, match 2 of ${count}`), s.texts.filter((t) => t.startsWith('token')).join());

    await find.fill('xyz');
    await waitFrames(page, 4);
    s = await state(page);
    assert.ok(s.texts.includes("no token matches 'xyz'"), 'it says so in place');
    assert.equal(s.settings.row, '19', 'and the query stays');

    // with the grids and a chosen window, the window moves onto the match
    await setAndWait(page, { heads_view: 'grid', head: -1, span: 12, from: 0, key_from: 0 });
    await find.fill('zebra');
    await waitFrames(page, 4);
    s = await state(page);
    assert.equal(s.settings.row, '600');
    const [r0, c0, n] = s.shown.window;
    assert.ok(r0 <= 600 && 600 < r0 + n && c0 <= 600 && 600 < c0 + n, `the window holds it: ${s.shown.window}`);
  });
});

test('1,024 tokens on a phone: nothing cut at the right edge, no grid under 3 px per cell, words readable', async () => {
  await withCleanPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, async (page) => {
    await openDemo(page, 'scene=mha');
    await setAndWait(page, { text: text(1024, 900), row: 0 });
    await waitFrames(page, 3, 120000);
    await page.locator('input.field[aria-label="find a word"]').fill('zebra');
    await waitFrames(page, 4);
    let s = await state(page);
    assert.equal(s.shown.tokens.length, 1024);
    assert.equal(s.settings.row, '900', 'the find box chose the word');
    const v = s.shown.text_view;
    assert.ok(v, 'the heads are shown as text');
    const k = v.tokens.indexOf(900);
    assert.ok(k >= 0, `head 0's words on screen hold the query: ${v.first}..${v.last}`);
    assert.ok(v.boxes[k][1] >= 0 && v.boxes[k][1] + v.boxes[k][3] <= 844, `the query is on screen: ${v.boxes[k]}`);
    for (const [x, , w, h] of v.boxes) {
      assert.ok(x >= 0 && x + w <= 390, `a word box inside the screen: ${x}, ${w}`);
      assert.ok(h >= 14, `a word box a readable line high: ${h}`);
    }
    assert.deepEqual(await smallCells(page, 3), []);
    const cut = (rects) => Object.entries(rects).filter(([n, r]) => n.startsWith('mha/') && r[0] + r[2] > 390.5);
    assert.deepEqual(cut(s.rects), [], 'no control runs past the right edge');

    await setAndWait(page, { heads_view: 'grid' });
    s = await state(page);
    const whole = s.rects['mha/whole_text'];
    assert.ok(whole && whole[0] >= 0 && whole[0] + whole[2] <= 390, `"Whole text" is on screen: ${whole}`);
    assert.deepEqual(cut(s.rects), []);
    assert.deepEqual(await smallCells(page, 3), [], 'no grid under 3 px per cell');
  });
});
