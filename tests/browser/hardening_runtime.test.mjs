// Hardening tests of the running page (issue 9): WebGL context loss and restore with no click, no network
// after load, and no HTML from untrusted text. One browser for the whole file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, openDemo, waitFrames, setAndWait, api, screenshot, withCleanPage, canvasInfo, cellCentre,
  heatmapById, baseUrl,
} from './harness.mjs';
import { assertHeatmapPixels } from './sampled_pixels.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

const withPage = (options, fn) => withCleanPage(browser, options, fn);

test('WebGL context loss: drawing stops with a message; on restore the same heatmaps come back, no click needed', async () => {
  await withPage({}, async (page) => {
    const glMessages = [];
    page.on('console', (m) => { if (/WebGL|GL_[A-Z]|INVALID_/.test(m.text())) glMessages.push(`${m.type()}: ${m.text()}`); });
    await openDemo(page, 'scene=mha&heads=2&d_model=16');
    const ids = ['mha/head0', 'mha/head1'];
    await assertHeatmapPixels(page, ids, 5);
    const before = await api(page, 'heatmaps');
    glMessages.length = 0;
    for (let round = 1; round <= 2; round++) {
      await page.evaluate(() => {
        window.loseContextExt = document.getElementById('canvas').getContext('webgl2').getExtension('WEBGL_lose_context');
        window.loseContextExt.loseContext();
      });
      await page.waitForFunction(() => document.body.dataset.state === 'context-lost', null, { timeout: 10000 });
      assert.equal(await page.locator('#status').isVisible(), true, 'the learner is told');
      assert.match(await page.locator('#message').innerText(), /continues by itself/);
      const lost = await api(page, 'state');
      assert.deepEqual(lost.webgl, { lost: true, restores: round - 1 }, 'state() reports the lost context');
      const frame = (await api(page, 'frameStats')).frame;
      await page.waitForTimeout(400);
      assert.equal((await api(page, 'frameStats')).frame, frame, 'no frames (no GL calls) while lost');
      await page.evaluate(() => window.loseContextExt.restoreContext());
      await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 10000 });
      await waitFrames(page, 3);
      assert.deepEqual((await api(page, 'state')).webgl, { lost: false, restores: round });
      assert.equal(await page.locator('#status').isVisible(), false, 'the message is gone');
      const after = await api(page, 'heatmaps');
      assert.deepEqual(after.map((h) => [h.id, h.values]), before.map((h) => [h.id, h.values]), 'the same view');
      await assertHeatmapPixels(page, ids, 5 + round);
    }
    // and new GL objects work: another scene draws right
    await setAndWait(page, { scene: 'positions', d_model: 8, count: 12 });
    await assertHeatmapPixels(page, ['positions/table'], 9);
    assert.deepEqual(glMessages, [], 'no GL errors or warnings');
  });
});

// The text field of the multi-head scene: the first run of one colour, 400+ px wide, above the heatmaps
// that is neither the background (the commonest colour there) nor reaches the right edge (the settings
// header does). CSS px of a point inside it, or null.
async function findTextField(page, aboveY) {
  const shot = await screenshot(page);
  const bottom = Math.min(Math.floor(aboveY), shot.height);
  const counts = new Map();
  for (let y = 40; y < bottom; y += 3) {
    for (let x = 0; x < shot.width; x += 3) {
      const k = shot.at(x, y).join();
      counts.set(k, (counts.get(k) || 0) + 1);
    }
  }
  const background = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  for (let y = 40; y < bottom; y++) {
    let start = 0;
    for (let x = 1; x <= shot.width; x++) {
      const same = x < shot.width && shot.at(x, y).join() === shot.at(x - 1, y).join();
      if (same) continue;
      if (x - start >= 400 && x < shot.width - 100 && shot.at(start, y).join() !== background) {
        return { x: start + 20, y: y + 8 };
      }
      start = x;
    }
  }
  return null;
}

test('no network after ready (scenes, hovers, set(), exports, typing); hostile URL text never becomes HTML', async () => {
  const initScript = () => {
    window.addedElements = [];
    new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => {
      if (n.nodeType !== 1) return;
      const what = n.tagName === 'A' ? ' ' + n.href.slice(0, 5) : n.tagName === 'INPUT' ? ' ' + n.type + '.' + n.className : '';
      // the data tables behind the figures (web/a11y.js) are built of text-only elements
      const inData = n.closest && n.closest('#figure-data') ? 'data ' : '';
      window.addedElements.push(inData + n.tagName + what);
    }))).observe(document, { childList: true, subtree: true });
  };
  const hostile = '<img src=x onerror=alert(1)> <script>alert(2)</script> cake';
  await withPage({ initScript, acceptDownloads: true }, async (page) => {
    const dialogs = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
    const requests = [];
    let watching = false;
    // The browser itself asks for the page's icon again when the address changes (Chromium does at every
    // replaceState); that is not the page's code, so it is counted apart and must be the icon and nothing else.
    const icons = [];
    // The Train scene starts the compute worker: its script and, inside it, the demo's own glue, fetched
    // once from the page's own site (counted apart: those two and nothing else).
    const workerFiles = [];
    page.on('request', (r) => {
      if (!watching || /^(blob|data):/.test(r.url())) return;
      if (r.url() === baseUrl() + 'favicon.svg' && r.resourceType() === 'other') icons.push(r.url());
      else if (r.url() === baseUrl() + 'compute_worker.js' || r.url() === baseUrl() + 'attention_demo.js') workerFiles.push(r.url());
      else requests.push(`${r.method()} ${r.url()} (${r.resourceType()})`);
    });

    await openDemo(page, 'scene=mha&heads=2&text=' + encodeURIComponent(hostile));
    watching = true;
    await page.evaluate(() => { window.addedElements = []; });
    assert.equal((await api(page, 'state')).settings.text, hostile, 'the URL text arrives as plain text');

    for (const scene of ['clock', 'positions', 'word', 'order', 'schemes', 'encoder', 'train', 'exercises', 'lm', 'mha']) {
      assert.equal((await setAndWait(page, { scene }, 2)).ok, true, scene);
    }
    // the language models' code (attention_demo.deferred.wasm) is fetched only when a model is opened
    const timing = await page.evaluate(() => window.attentionDemo.timing);
    assert.deepEqual([timing.deferred_ms, timing.deferred_page_ms], [null, null], 'the deferred module was loaded');
    assert.equal((await setAndWait(page, { text: '<script>alert(3)</script><b>bold</b>' })).ok, true);
    assert.equal((await setAndWait(page, { text: hostile })).ok, true);
    // hovers over every cell row of head 0
    const info = await canvasInfo(page);
    const h = heatmapById(await api(page, 'heatmaps', { values: false }), 'mha/head0');
    for (let r = 0; r < h.rows; r += 2) {
      const p = cellCentre(info, h, r, (r * 3) % h.cols);
      await page.mouse.move(p.x, p.y);
      await waitFrames(page, 1);
    }
    assert.equal((await api(page, 'state')).hover.id, 'mha/head0');
    // exports: the API's CSV, and the right-click menu's Save CSV and Save PNG (keyboard: down, space)
    assert.match(await api(page, 'exportCsv', 'mha/head0'), /^query \\ key,<,img,src,/, 'labels are plain text in the CSV');
    const cell = cellCentre(info, h, 1, 1);
    for (const [downs, kind] of [[1, '.csv'], [2, '.png']]) {
      await page.mouse.click(cell.x, cell.y, { button: 'right' });
      await waitFrames(page, 3);
      for (let i = 0; i < downs; i++) {
        await page.keyboard.press('ArrowDown');
        await waitFrames(page, 2);
      }
      const download = page.waitForEvent('download', { timeout: 15000 });
      await page.keyboard.press('Space');
      assert.ok((await download).suggestedFilename().endsWith(kind), `Save ${kind} downloaded`);
      await page.keyboard.press('Escape');
      await waitFrames(page, 2);
    }
    // typing into the text field
    await page.mouse.move(5, 790);
    await waitFrames(page, 2);
    const field = await findTextField(page, h.rect.y + info.top);
    assert.ok(field, 'found the text field');
    await page.mouse.click(field.x, field.y);
    await waitFrames(page, 2);
    await page.keyboard.press('End');
    await page.keyboard.type(' <i>typed</i>', { delay: 20 });
    await page.keyboard.press('Enter');
    await waitFrames(page, 3);
    assert.equal((await api(page, 'state')).settings.text, hostile + ' <i>typed</i>', 'the typed text arrived');

    await page.waitForTimeout(1200);  // downloads' anchors are removed after a second
    assert.deepEqual(requests, [], 'no request after ready');
    assert.deepEqual(workerFiles.sort(), [baseUrl() + 'attention_demo.js', baseUrl() + 'compute_worker.js'],
      'the compute worker fetched its two files once, when the Train scene opened');
    assert.deepEqual(dialogs, [], 'no dialog');
    const added = await page.evaluate(() => window.addedElements);
    const dataTags = /^data (TABLE|CAPTION|THEAD|TBODY|TR|TH|TD|P|H2|H3|UL|LI|SPAN|DIV|A( |$))/;
    assert.ok(added.every((t) => t === 'A blob:' || t === 'INPUT text.field' || dataTags.test(t)),
      `only download links, the app's text fields and the data tables' text were added: ${added.join(', ')}`);
    const values = await page.$$eval('input.field', (els) => els.map((e) => e.value));
    assert.ok(values.includes(hostile + ' <i>typed</i>'), 'the field holds the text as plain text');
    assert.equal(await page.locator('img, iframe, object, embed').count(), 0, 'no element from the text');
    const scripts = await page.evaluate(() => Array.from(document.scripts, (s) => s.getAttribute('src')));
    assert.deepEqual(scripts.sort(), ['attention_demo.js', 'page.js'],
                     'only the page\'s own scripts (its scripts joined in page.js, and the glue)');
  });
});
