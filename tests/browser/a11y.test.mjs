// The canvas app for assistive technology (web/a11y.js): the live region says what the app announces as the
// keyboard moves through it (controls, then a heatmap's cells with their weights); the numbers behind every
// figure are HTML tables (a CSV link for big ones) whose labels stay plain text; the region shows, with
// enough contrast, while it has the keyboard focus. One page load per test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launchBrowser, openDemo, waitFrames, api, withCleanPage, baseUrl } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

// Every announcement the app dispatches, in order (read by the tests, not by the page).
const recordAnnouncements = () => {
  window.dispatchedAnnouncements = [];
  window.addEventListener('attention:announce', (e) => window.dispatchedAnnouncements.push(String(e.detail)));
};

// The live region's text once it shows the latest announcement dispatched so far (a11y.js lets at most one
// through every 150 ms and always ends on the latest).
async function announced(page) {
  await page.waitForFunction(() => {
    const all = window.dispatchedAnnouncements;
    return document.getElementById('announce').textContent === (all.length ? all[all.length - 1] : '');
  }, null, { timeout: 5000 });
  return page.evaluate(() => document.getElementById('announce').textContent);
}

// A cell's announcement, "<heatmap's name>, query '<label>', key '<label>': <weight>" (the scene's name
// before it when the scene has just opened); an mha grid's name is "head <h> of <heads>".
function parseCell(text) {
  const m = /^(?:.+ scene\. )?(.+?), query '(.*)', key '(.*)': (\S+)$/.exec(text);
  assert.ok(m, `a cell announcement names heatmap, query, key and weight: "${text}"`);
  assert.match(m[4], /^-?(0|[1-9]\d*)(\.\d+)?$/, `the weight is a plain decimal: "${text}"`);
  const digits = m[4].replace(/^-?0\.0*/, '').replace('.', '').replace(/^0+/, '');
  assert.ok(digits.length <= 3, `at most 3 significant digits: "${text}"`);
  return { name: m[1], query: m[2], key: m[3], weight: Number(m[4]) };
}

// Checks that `text` describes the keyboard's cell (state().hover) with that heatmap's labels and weight.
async function assertCellSaid(page, text) {
  const s = await api(page, 'state');
  assert.ok(s.hover, `the app reports the cell it announced: "${text}"`);
  const [h] = await api(page, 'heatmaps', { id: s.hover.id });
  const said = parseCell(text);
  const { row, col } = s.hover;
  const head = /^mha\/head(\d+)$/.exec(h.id);
  assert.ok(head, `an mha grid: ${h.id}`);
  assert.equal(said.name, `head ${head[1]} of ${s.shown.heads}`, `the grid's name: "${text}"`);
  assert.equal(said.query, h.row_labels[row], `query label of ${h.id} [${row},${col}]: "${text}"`);
  assert.equal(said.key, h.col_labels[col], `key label of ${h.id} [${row},${col}]: "${text}"`);
  const v = h.values[row][col];
  assert.ok(Math.abs(said.weight - v) <= 0.005 * Math.abs(v) + 1e-12,
    `the announced weight ${said.weight} is ${h.id} [${row},${col}] = ${v} to 3 significant digits`);
  return { id: h.id, row, col, rows: h.rows, cols: h.cols };
}

test('keyboard: Tab reaches a heatmap; arrows move its cell cursor and the live region says each cell', async (t) => {
  await withCleanPage(browser, { initScript: recordAnnouncements }, async (page) => {
    await openDemo(page, 'scene=mha&heads=2&text=' + encodeURIComponent('Refund the cake'));
    const region = await page.$eval('#announce', (e) => ({
      role: e.getAttribute('role'), live: e.getAttribute('aria-live'), display: getComputedStyle(e).display,
      width: e.getBoundingClientRect().width,
    }));
    assert.deepEqual(region, { role: 'status', live: 'polite', display: 'block', width: 1 },
      'a polite status region, in the accessibility tree but drawn 1 px wide');

    await page.focus('#canvas');
    const controls = [];
    let text = '', presses = 0;
    const isCell = (x) => /, query '.*', key '.*': /.test(x);
    for (; presses < 60 && !isCell(text); presses++) {
      await page.keyboard.press('Tab');
      await waitFrames(page, 2);
      text = await announced(page);
      if (!isCell(text) && controls[controls.length - 1] !== text) controls.push(text);
    }
    assert.ok(isCell(text), `Tab reached a heatmap within 60 presses; said: ${controls.join(' | ')}`);
    assert.ok(controls.some((c) => /^d_model, \d+$/.test(c)), `Tab passed a control on the way: ${controls.join(' | ')}`);
    const all = await page.evaluate(() => window.dispatchedAnnouncements);
    assert.match(all[0], /^Multi-head attention scene\./, 'the first announcement names the scene');
    assert.ok(all.slice(1).every((a) => !a.includes('scene.')), `later ones do not repeat it: ${all.join(' | ')}`);
    assert.ok(all.every((a) => !/mha\/|e-\d/.test(a)), `no internal ids or exponents: ${all.join(' | ')}`);
    t.diagnostic(`${presses} Tab presses to ${text}; on the way: ${controls.join(' | ')}`);

    let cell = await assertCellSaid(page, text);
    assert.ok(cell.rows >= 2 && cell.cols >= 2, `${cell.id} has room to move (${cell.rows} x ${cell.cols})`);
    for (const [key, dr, dc] of [['ArrowRight', 0, 1], ['ArrowDown', 1, 0]]) {
      const want = { row: Math.min(cell.row + dr, cell.rows - 1), col: Math.min(cell.col + dc, cell.cols - 1) };
      await page.keyboard.press(key);
      await waitFrames(page, 2);
      const next = await assertCellSaid(page, await announced(page));
      assert.deepEqual([next.id, next.row, next.col], [cell.id, want.row, want.col], `${key} moved the cursor`);
      cell = next;
    }
    // four keys in a row, faster than the region may speak: it ends on the last cell
    for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowLeft']) await page.keyboard.press(key);
    await waitFrames(page, 3);
    const last = await assertCellSaid(page, await announced(page));
    assert.equal(last.id, cell.id, 'the cursor stayed in its heatmap');
  });
});

// What #figure-data shows: for each table or CSV link its heatmap id, caption or paragraph, header and cell
// texts.
const readRegion = (page) => page.evaluate(() => {
  const region = document.getElementById('figure-data');
  return {
    hidden: region.hidden,
    items: Array.from(region.querySelectorAll('[data-heatmap]'), (e) => ({
      id: e.getAttribute('data-heatmap'),
      tag: e.tagName,
      caption: e.tagName === 'TABLE' ? e.caption.textContent : e.parentElement.textContent,
      cols: Array.from(e.querySelectorAll('thead th'), (th) => [th.scope, th.textContent]),
      rows: Array.from(e.querySelectorAll('tbody tr'), (tr) => ({
        header: [tr.cells[0].tagName, tr.cells[0].scope, tr.cells[0].textContent],
        cells: Array.from(tr.cells).slice(1).map((td) => td.textContent),
      })),
      download: e.tagName === 'A' ? e.download : null,
    })),
  };
});

// Waits until #figure-data lists exactly these heatmap ids (a11y.js builds it a little after a frame).
const waitForRegion = (page, ids) => page.waitForFunction((want) => {
  const got = Array.from(document.querySelectorAll('#figure-data [data-heatmap]'), (e) => e.getAttribute('data-heatmap'));
  return got.join('\n') === want.join('\n');
}, ids, { timeout: 10000 });

// Checks the table of heatmap h against its labels (a heatmap without labels numbers its rows or columns
// from 0) and values (3 decimals).
function assertTable(item, h) {
  assert.equal(item.tag, 'TABLE', `${h.id} (${h.rows} x ${h.cols}) is a table`);
  assert.ok(item.caption.includes(`${h.rows} × ${h.cols}`), `${h.id}: the caption gives the size: ${item.caption}`);
  const label = (labels, i) => labels[i] ?? String(i);
  assert.deepEqual(item.cols, Array.from({ length: h.cols }, (_, c) => ['col', label(h.col_labels, c)]),
    `${h.id}: column headers are the key labels`);
  assert.equal(item.rows.length, h.rows, `${h.id}: one row per query`);
  item.rows.forEach((row, r) => {
    assert.deepEqual(row.header, ['TH', 'row', label(h.row_labels, r)], `${h.id}: row ${r} header is the query label`);
    assert.equal(row.cells.length, h.cols, `${h.id}: row ${r} has a cell per key`);
    row.cells.forEach((t, c) => {
      const v = h.values[r][c];
      assert.match(t, /^-?\d+\.\d{3}$/, `${h.id} [${r},${c}]: three decimals`);
      assert.ok(Math.abs(Number(t) - v) <= 0.0005, `${h.id} [${r},${c}]: ${t} for ${v}`);
    });
  });
}

test('figure data: a table per small heatmap with its labels and values; hostile labels stay text', async () => {
  await withCleanPage(browser, {}, async (page) => {
    const hostile = '<img src=x onerror=alert(1)> cake';
    await openDemo(page, 'scene=mha&heads=2&text=' + encodeURIComponent(hostile));
    const maps = await api(page, 'heatmaps');
    assert.ok(maps.length >= 2, `the scene draws heatmaps: ${maps.map((h) => h.id)}`);
    await waitForRegion(page, maps.map((h) => h.id));
    const shown = await readRegion(page);
    assert.equal(shown.hidden, false, 'the region is in the accessibility tree');
    for (const h of maps) {
      assert.ok(h.rows * h.cols <= 400, `${h.id} is small enough for a table`);
      assertTable(shown.items.find((i) => i.id === h.id), h);
    }
    const labels = maps.flatMap((h) => [...h.row_labels, ...h.col_labels]);
    assert.ok(labels.some((l) => l.includes('<')), `the hostile text reached the labels: ${labels.join(' ')}`);
    assert.equal(await page.locator('img, script:not([src])').count(), 0, 'no element came from the text');
    // The tokenizer splits markup into one-character tokens, so no label could become an element even as
    // HTML: the served scripts (a11y.js among the others joined in page.js) must never parse any.
    const script = await (await page.request.get(baseUrl() + 'page.js')).text();
    assert.ok(script.includes('a11y.js') && script.includes('textContent'), 'page.js with a11y.js was served');
    assert.doesNotMatch(script, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment/,
      'the page\'s scripts make their elements with createElement and textContent only');

    // a settings change rebuilds it
    assert.equal((await api(page, 'set', { heads: 4, text: 'Refund the cake' })).ok, true);
    await waitFrames(page, 3);
    const after = await api(page, 'heatmaps');
    assert.ok(after.some((h) => h.id === 'mha/head3'), 'four heads are drawn');
    await waitForRegion(page, after.map((h) => h.id));
    const rebuilt = await readRegion(page);
    for (const h of after) assertTable(rebuilt.items.find((i) => i.id === h.id), h);
  });
});

// WCAG contrast ratio of two computed CSS colours ("rgb(r, g, b)").
function contrast(a, b) {
  const lum = (css) => {
    const [r, g, bl] = css.match(/[\d.]+/g).slice(0, 3).map((x) => {
      const c = Number(x) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('figure data: big heatmaps offer their CSV; the region shows on keyboard focus with enough contrast', async () => {
  await withCleanPage(browser, { viewport: { width: 640, height: 400 }, acceptDownloads: true }, async (page) => {
    await openDemo(page, 'scene=positions&count=100&d_model=64');
    const maps = await api(page, 'heatmaps', { values: false });
    const big = maps.filter((h) => h.rows * h.cols > 400);
    assert.ok(big.length >= 1, `a heatmap of more than 400 cells: ${maps.map((h) => `${h.id} ${h.rows}x${h.cols}`)}`);
    await waitForRegion(page, maps.map((h) => h.id));
    const shown = await readRegion(page);
    for (const h of maps) {
      const item = shown.items.find((i) => i.id === h.id);
      if (h.rows * h.cols <= 400) {
        assertTable(item, (await api(page, 'heatmaps', { id: h.id }))[0]);
        continue;
      }
      assert.equal(item.tag, 'A', `${h.id} (${h.rows} x ${h.cols}) is a link`);
      assert.ok(item.caption.includes(`Download the ${h.rows} × ${h.cols} values as CSV`), item.caption);
      assert.equal(item.download, h.id.replace(/\//g, '_') + '.csv');
    }

    // hidden until focused: then a panel at the bottom, at most half the window high, scrolling
    const box = () => page.$eval('#figure-data', (e) => {
      const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
      return { x: r.x, y: r.y, w: r.width, h: r.height, bottom: r.bottom, overflowY: cs.overflowY,
               scrolls: e.scrollHeight > e.clientHeight, focusWithin: e.matches(':focus-within') };
    });
    assert.ok((await box()).w <= 1, 'the region is not drawn without the focus');
    await page.focus('#figure-data');
    const open = await box();
    assert.ok(open.focusWithin && open.w === 640 && open.bottom === 400 && open.h > 40 && open.h <= 200,
      `focused: a panel along the bottom, at most 50vh: ${JSON.stringify(open)}`);
    assert.ok(open.overflowY === 'auto' && open.scrolls, `the panel scrolls: ${JSON.stringify(open)}`);
    await page.keyboard.press('Tab');
    const link = await page.evaluate(() => document.activeElement.getAttribute('data-heatmap'));
    assert.equal(link, big[0].id, 'Tab goes on to the first CSV link');
    assert.equal((await box()).w, 640, 'the panel stays while its link has the focus');

    for (const scheme of ['dark', 'light']) {
      await page.emulateMedia({ colorScheme: scheme });
      const colours = await page.evaluate(() => {
        const region = document.getElementById('figure-data');
        const of = (sel) => getComputedStyle(region.querySelector(sel));
        return {
          background: getComputedStyle(region).backgroundColor,
          outline: getComputedStyle(document.activeElement).outlineColor,
          outlineWidth: getComputedStyle(document.activeElement).outlineWidth,
          texts: { region: getComputedStyle(region).color, h2: of('h2').color, caption: of('caption').color,
                   th: of('th').color, td: of('td').color, p: of('p').color, a: of('a').color },
        };
      });
      assert.match(colours.background, /^rgb\(/, `${scheme}: an opaque background (${colours.background})`);
      for (const [what, colour] of Object.entries(colours.texts)) {
        const ratio = contrast(colour, colours.background);
        assert.ok(ratio >= 4.5, `${scheme}: ${what} ${colour} on ${colours.background}: ${ratio.toFixed(2)}:1`);
      }
      assert.ok(parseFloat(colours.outlineWidth) >= 2, `${scheme}: a focus outline of ${colours.outlineWidth}`);
      const ring = contrast(colours.outline, colours.background);
      assert.ok(ring >= 3, `${scheme}: focus outline ${colours.outline} on ${colours.background}: ${ring.toFixed(2)}:1`);
    }

    const download = page.waitForEvent('download', { timeout: 15000 });
    await page.keyboard.press('Enter');
    const file = await download;
    assert.equal(file.suggestedFilename(), big[0].id.replace(/\//g, '_') + '.csv');
    assert.equal(await readFile(await file.path(), 'utf8'), await api(page, 'exportCsv', big[0].id),
      'the download is exportCsv() of that heatmap');
  });
});
