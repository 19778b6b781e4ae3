// Trained models you can link: "Look inside" writes the model's true sizes into the URL and a reload of
// that URL shows the same grids (the tab remembers the model); model=path/to/model.json fetches a model
// file from the page's own site, and a model on another site is refused with a message in place.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, baseUrl, launchBrowser, openDemo, setAndWait, waitFrames, waitReady, watchErrors, state } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

// Frames until state().shown.trained_model is there (a fetched model arrives after a few frames).
async function waitForModel(page) {
  for (let i = 0; i < 100; i++) {
    const s = await state(page);
    if (s.shown.trained_model && s.shown.weights) return s;
    await waitFrames(page, 2);
  }
  throw new Error('no trained model was shown: ' + JSON.stringify((await state(page)).messages));
}

test('linked models: Look inside, reload, model=path, and a foreign model refused', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1800 } });  // Look inside in view
  const page = await context.newPage();
  const errors = watchErrors(page);
  await openDemo(page, 'scene=train&max_steps=60');
  await setAndWait(page, { train: 'run' });
  await page.waitForFunction(() => {
    const s = window.attentionDemo.state().shown;
    return s.steps === 60 && !s.running && s.metrics && s.metrics.step === 60 && !s.evaluating;
  }, null, { timeout: 60000 });
  // the heads panel measured (its table moves the button below it down)
  await page.waitForFunction(() => {
    window.attentionDemo.requestFrames(1);
    const h = window.attentionDemo.state().shown.heads_off;
    return h && !h.measuring;
  }, null, { timeout: 30000, polling: 100 });
  await waitFrames(page, 3);
  const file = await api(page, 'modelJson');
  assert.ok(file.length > 1000, 'the trained model as a file');

  const r = (await state(page)).rects['train/look_inside'];
  await page.mouse.click(r[0] + r[2] / 2, r[1] + r[3] / 2);
  const inside = await waitForModel(page);
  const url = new URL(page.url());
  assert.equal(inside.scene, 'mha');
  assert.equal(url.searchParams.get('model'), 'trained');
  assert.equal(url.searchParams.get('d_model'), '32', 'the URL holds the model\'s own d_model, not the scene\'s 16');
  assert.equal(url.searchParams.get('heads'), '4');
  assert.equal(inside.shown.d_model, 32);

  await page.reload();
  await waitReady(page);
  const again = await waitForModel(page);
  assert.deepEqual(again.shown.weights, inside.shown.weights, 'the reloaded link shows the same grids');
  assert.equal(again.settings.d_model, '32');

  // a model file on the page's own site, named by the link
  await context.route(baseUrl() + 'models/router.json', (route) => route.fulfill({ contentType: 'application/json', body: file }));
  const linked = await context.newPage();
  await openDemo(linked, new URLSearchParams({ scene: 'mha', model: 'models/router.json', text: inside.settings.text }).toString());
  const fetched = await waitForModel(linked);
  assert.equal(fetched.shown.trained_model.source, 'models/router.json');
  assert.deepEqual(fetched.shown.weights, inside.shown.weights, 'the linked file gives the same grids');
  assert.equal(new URL(linked.url()).searchParams.get('model'), 'models/router.json', 'the link stays');

  // another site's model is not fetched; the scene says why and keeps working
  const foreign = await context.newPage();
  const requests = [];
  foreign.on('request', (q) => requests.push(q.url()));
  await openDemo(foreign, 'scene=mha&model=' + encodeURIComponent('http://example.invalid/router.json'));
  await waitFrames(foreign, 5);
  const s = await state(foreign);
  assert.ok(s.messages.some((m) => /this page's own site/.test(m)), JSON.stringify(s.messages));
  assert.ok(!requests.some((u) => new URL(u).hostname === 'example.invalid'), 'no request to the other site');
  assert.deepEqual(errors, []);
  await context.close();
});
