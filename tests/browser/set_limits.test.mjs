// set() with hostile settings: notes stay capped however many bad calls come, null is refused, a text over
// 100,000 bytes is cut with a note, and the page keeps drawing. One browser, one page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openDemo, waitFrames, api, withCleanPage } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

test('set(): 3,000 bad calls keep 20 notes, null is refused, long texts are cut, frames go on', async (t) => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=mha');
    const cpuBefore = (await api(page, 'frameStats')).cpu_ms;
    await page.evaluate(() => {
      for (let i = 0; i < 3000; i++) window.attentionDemo.set({ d_model: 5000 + i });
    });
    await waitFrames(page, 5);
    let s = await api(page, 'state');
    assert.equal(s.notes.length, 20, 'the newest 20 notes are kept');
    assert.equal(s.notes_dropped, 2980, 'the rest are counted');
    assert.match(s.notes[19], /d_model=7999/, 'the newest note is last');
    t.diagnostic(`frame CPU ${cpuBefore} ms before, ${(await api(page, 'frameStats')).cpu_ms} ms after`);

    const nul = await page.evaluate(() => window.attentionDemo.set({ text: null }));
    assert.equal(nul.ok, false);
    assert.match(nul.notes[0], /null/);
    s = await api(page, 'state');
    assert.notEqual(s.settings.text, 'null', 'null did not become the word "null"');

    const long = 'refund the cake '.repeat(10000);  // 160,000 bytes
    const r = await page.evaluate((text) => window.attentionDemo.set({ text }), long);
    assert.equal(r.ok, true, JSON.stringify(r.notes));
    assert.match(r.notes[0], /cut to its first 100000 bytes/);
    await waitFrames(page, 3);
    s = await api(page, 'state');
    assert.equal(s.settings.text, long.slice(0, 100000));
    assert.equal(s.shown.tokens.length, 1024, 'the core reads the first 1024 tokens');
    assert.ok(s.shown.dropped_tokens > 0, 'and reports the rest as cut');
  });
});
