// A small model file that declares a huge model is refused before the page allocates anything: the wasm
// heap does not grow, the answer is an error in words, and the page keeps drawing. One browser, one page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openDemo, waitFrames, setAndWait, api, withCleanPage } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

// A test of model files on a page whose Train scene has trained its 5 steps and can save its model:
// body(t, page, goodText, heap), goodText the page's saved model, heap() the wasm heap's size in bytes.
function onTrainedModel(name, body) {
  test(name, async (t) => {
    await withCleanPage(browser, {}, async (page) => {
      await openDemo(page, 'scene=train&max_steps=5');
      await setAndWait(page, { train: 'run' });
      await page.waitForFunction(() => window.attentionDemo.modelJson() !== null, null, { timeout: 30000 });
      const heap = () => page.evaluate(() => window.Module.HEAP8.length);
      await body(t, page, await api(page, 'modelJson'), heap);
    });
  });
}

onTrainedModel('hostile model files: huge declared sizes are refused without growing the heap; the page keeps drawing',
  async (t, page, goodText, heap) => {
    const good = JSON.parse(goodText);
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

// The reproducers: whole numbers far out of range (the wasm build trapped on them and every later call
// threw), 50 MB of junk, a text past the byte limit, and the same model loaded again and again. The heap stays
// under 64 MB and the page keeps answering.
onTrainedModel('hostile model files: huge whole numbers, junk and oversized texts are refused in words; loads give memory back',
  async (t, page, goodText, heap) => {
    const good = JSON.parse(goodText);
    const load = (text) => page.evaluate((s) => window.attentionDemo.loadModel(s, 'bad.json'), text);
    for (const v of ['1e300', '-1e300', '1e19', '9.3e18']) {
      for (const [field, edit] of [
        ['version', (s) => s.replace(/"version":\s*1/, `"version":${v}`)],
        ['config.seed', (s) => s.replace(/"seed":\s*\d+/, `"seed":${v}`)],
        ['config.d_model', (s) => s.replace(/"d_model":\s*\d+/, `"d_model":${v}`)],
        ['config.heads', (s) => s.replace(/"heads":\s*\d+/, `"heads":${v}`)],
        ['a shape', (s) => s.replace(/"shape":\s*\[\s*1\s*,/, `"shape":[${v},`)],
      ]) {
        const text = edit(goodText);
        assert.notEqual(text, goodText, `${field} was edited`);
        const r = await load(text);
        assert.equal(r.ok, false, `${field} = ${v} loaded`);
        assert.match(r.error, /out of range|must be a whole number/, `${field} = ${v}: ${r.error}`);
      }
    }
    t.diagnostic('every out-of-range whole number refused in words');
    assert.equal((await api(page, 'state')).scene, 'train', 'the page still answers');

    const before = await heap();
    const junk = await page.evaluate(() => {
      const r = window.attentionDemo.loadModel('[' + '1,'.repeat(25e6) + '1]', 'junk.json');  // 50 MB
      return r;
    });
    assert.equal(junk.ok, false);
    assert.match(junk.error, /expected a JSON object at the top, not array/, junk.error);
    const huge = await page.evaluate(() => window.attentionDemo.loadModel('{"a":"' + 'x'.repeat(70e6) + '"}', 'huge.json'));
    assert.equal(huge.ok, false);
    assert.match(huge.error, /larger than 64 MiB/, huge.error);
    const afterRefused = await heap();
    t.diagnostic(`wasm heap ${before} -> ${afterRefused} bytes after refusing 50 MB of junk and a 70 MB text`);
    assert.ok(afterRefused - before <= 4 * 1024 * 1024, `the heap grew by ${afterRefused - before} bytes`);
    assert.ok(afterRefused < 64 * 1024 * 1024, `the heap is ${afterRefused} bytes`);

    // the same valid model, a bigger copy of its training info each time: loading it again reuses the memory
    const bigger = structuredClone(good);
    bigger.training = { ...(good.training || {}), padding: Array.from({ length: 200000 }, (_, i) => i) };
    const biggerText = JSON.stringify(bigger);
    for (let i = 0; i < 4; i++) assert.equal((await load(biggerText)).ok, true, `load ${i + 1}`);
    const afterFour = await heap();
    for (let i = 0; i < 4; i++) assert.equal((await load(biggerText)).ok, true, `load ${i + 5}`);
    const afterEight = await heap();
    t.diagnostic(`wasm heap ${afterFour} after four loads, ${afterEight} after eight`);
    assert.equal(afterEight, afterFour, 'four more loads of the same model do not grow the heap');
    await waitFrames(page, 3);
    assert.equal((await api(page, 'state')).scene, 'train');
  });
