// A small model file that declares a huge model is refused before the page allocates anything: the wasm
// heap does not grow, the answer is an error in words, and the page keeps drawing. One browser, one page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openDemo, waitFrames, setAndWait, api, withCleanPage } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

test('hostile model files: huge declared sizes are refused without growing the heap; the page keeps drawing',
  async (t) => {
    await withCleanPage(browser, {}, async (page) => {
      await openDemo(page, 'scene=train&max_steps=5');
      await setAndWait(page, { train: 'run' });
      await page.waitForFunction(() => window.attentionDemo.modelJson() !== null, null, { timeout: 30000 });
      const good = JSON.parse(await api(page, 'modelJson'));
      const heap = () => page.evaluate(() => window.Module.HEAP8.length);
      const before = await heap();
      const cases = [
        ['100,000 classes at d_model 1,024', (d) => { d.config.classes = 100000; d.config.d_model = 1024; }],
        ['a 10^8-word vocabulary', (d) => { d.config.vocab = 100000000; }],
        ['10^6-wide feed-forward layers', (d) => { d.config.d_ff = 1000000; }],
      ];
      for (const [what, damage] of cases) {
        const doc = structuredClone(good);
        damage(doc);
        const r = await page.evaluate((text) => window.attentionDemo.loadModel(text, 'hostile.json'), JSON.stringify(doc));
        assert.equal(r.ok, false, `${what}: loaded`);
        assert.match(r.error, /allowed/, `${what}: ${r.error}`);
        t.diagnostic(`${what}: ${r.error}`);
      }
      const after = await heap();
      t.diagnostic(`wasm heap ${before} -> ${after} bytes`);
      assert.ok(after - before <= 16 * 1024 * 1024, `the heap grew by ${after - before} bytes`);
      await waitFrames(page, 5);
      assert.equal((await api(page, 'state')).scene, 'train');
    });
  });
