// Strings over the API's limits are refused before they reach the module's heap: set() with a text of
// 100,000,000 characters (as an object and as JSON text), exportCsv() and heatmaps() with such an id; the
// heap grows by less than 16 MB, and the page keeps answering and applying settings. One browser, one page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openDemo, waitFrames, setAndWait, api, withCleanPage, assertStillRuns } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

const HUGE = 1e8;             // characters
const HEAP_SLACK = 16 << 20;  // bytes the heap may grow by over all the refused calls

test('set(), exportCsv() and heatmaps() refuse 1e8-character strings without copying them into the heap', async () => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=mha&heads=2');
    const heap = () => page.evaluate(() => window.Module.HEAP8.length);
    const heapBefore = await heap();
    const textBefore = (await api(page, 'state')).settings.text;

    const answers = await page.evaluate((n) => {
      const a = 'a'.repeat(n);
      const results = {};
      results.object = window.attentionDemo.set({ text: a });
      results.json = window.attentionDemo.set(JSON.stringify({ text: a }));
      try {
        results.csv = window.attentionDemo.exportCsv(a);
      } catch (e) {
        results.csvError = e.message;
      }
      results.heatmaps = window.attentionDemo.heatmaps({ id: a });
      return results;
    }, HUGE);
    for (const form of ['object', 'json']) {
      assert.equal(answers[form].ok, false, `set() of a 1e8-character text (${form}) is refused`);
    }
    const limit = await page.evaluate(() => window.attentionDemo.settingsLimit);
    assert.equal(typeof limit, 'number', 'attentionDemo.settingsLimit is a number');
    for (const form of ['object', 'json']) {
      const r = answers[form];
      assert.equal(r.notes.length, 1, 'with one note');
      assert.ok(r.notes[0].includes(`at most ${limit} characters`), `the note names the limit: ${r.notes[0]}`);
    }
    assert.equal(answers.csv, undefined, 'exportCsv() of a 1e8-character id gives no CSV');
    assert.match(answers.csvError || '', /^no heatmap '/, `exportCsv() says there is no such heatmap: ${answers.csvError}`);
    assert.ok(answers.csvError.length < 300, 'in a short message');
    assert.deepEqual(answers.heatmaps, [], 'heatmaps() of a 1e8-character id lists none');

    const grown = (await heap()) - heapBefore;
    assert.ok(grown < HEAP_SLACK, `the heap grew by ${grown} bytes (under ${HEAP_SLACK})`);
    await waitFrames(page, 3);
    assert.equal((await api(page, 'state')).settings.text, textBefore, 'the refused text changed nothing');

    // at the limit itself a text is still accepted (cut to the app's 100,000 bytes), and the page answers
    const atLimit = 'b'.repeat(limit - JSON.stringify({ text: '' }).length);
    const cut = await page.evaluate((text) => window.attentionDemo.set({ text }), atLimit);
    assert.equal(cut.ok, true, `set() at exactly ${limit} characters of JSON is accepted: ${JSON.stringify(cut.notes)}`);
    const over = await page.evaluate((text) => window.attentionDemo.set({ text: text + 'b' }), atLimit);
    assert.equal(over.ok, false, 'one character more is refused');
    await assertStillRuns(page);
  });
});
