// The path through the scenes: "Start here" first, Back / Next in lesson order with one instruction per
// scene, every scene opening at its top, and each scene change a browser history entry (Back / Forward).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, launchBrowser, openDemo, setAndWait, waitFrames, watchErrors, state } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

// Clicks the centre of the rectangle the app reported under `name` (state().rects).
async function clickNamed(page, name) {
  const r = (await state(page)).rects[name];
  assert.ok(r, `the app drew ${name}`);
  await page.mouse.click(r[0] + r[2] / 2, r[1] + r[3] / 2);
  await waitFrames(page, 3);
}

test('path: Start here, Next and Back in lesson order, each scene at its top, browser Back and Forward', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await openDemo(page, '');
  let s = await state(page);
  assert.equal(s.scene, 'start', 'a link without a scene opens Start here');
  assert.ok(s.texts.some((t) => /same label with the same confidence/.test(t)), 'the three lines are there');
  assert.equal(new URL(page.url()).search, '?scene=start');

  await clickNamed(page, 'start/begin');
  assert.equal((await state(page)).scene, 'clock', 'Begin opens the clock');
  await clickNamed(page, 'path/next');
  s = await state(page);
  assert.equal(s.scene, 'positions', 'Next follows the lesson order');
  assert.ok(s.texts.some((t) => /Each row is one position's clock reading/.test(t)), 'its instruction is shown');
  await clickNamed(page, 'path/back');
  assert.equal((await state(page)).scene, 'clock', 'Back goes one step back');

  // each scene change was a history entry: start, clock, positions, clock
  await page.goBack();
  await waitFrames(page, 3);
  assert.equal((await state(page)).scene, 'positions', 'browser Back');
  await page.goBack();
  await waitFrames(page, 3);
  assert.equal((await state(page)).scene, 'clock');
  await page.goBack();
  await waitFrames(page, 3);
  assert.equal((await state(page)).scene, 'start');
  await page.goForward();
  await waitFrames(page, 3);
  s = await state(page);
  assert.equal(s.scene, 'clock', 'browser Forward');
  assert.equal(new URL(page.url()).searchParams.get('scene'), 'clock');

  // a setting change within a scene replaces its entry instead of adding one
  const length = await page.evaluate(() => history.length);
  await setAndWait(page, { pos: 12 });
  assert.equal(await page.evaluate(() => history.length), length, 'no new entry for a setting');
  assert.equal(new URL(page.url()).searchParams.get('pos'), '12');

  // a new scene opens at its top, wherever the last one was scrolled to
  await setAndWait(page, { scene: 'mha' });
  await page.mouse.move(700, 500);
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, 400);
  await waitFrames(page, 3);
  const scrolled = (await state(page)).rects['path/next'];
  assert.ok(!scrolled || scrolled[1] < 0, 'the multi-head scene scrolled down');
  await setAndWait(page, { scene: 'order' });
  const top = (await state(page)).rects['path/next'];
  assert.ok(top && top[1] > 0 && top[1] < 100, `the order scene opens at its top: ${JSON.stringify(top)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('path: an embed keeps its history to itself and shows no path bar', async () => {
  const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
  await openDemo(page, 'scene=clock&embed=1');
  const length = await page.evaluate(() => history.length);
  await setAndWait(page, { scene: 'mha' });
  const s = await state(page);
  assert.equal(s.scene, 'mha');
  assert.equal(s.settings.embed, '1', 'set({scene}) keeps embed mode');
  assert.equal(await page.evaluate(() => history.length), length, 'no history entry from inside an embed');
  assert.equal(s.rects['path/next'], undefined, 'no Back / Next in an embed');
  await page.close();
});

test('clock: the comparison says which hands tell the two positions apart', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await openDemo(page, 'scene=clock&d_model=16&pos=44&pos2=45');
  const say = (await state(page)).texts.find((t) => t.startsWith('Positions 44 and 45, hand by hand'));
  assert.ok(say, 'the comparison sentence');
  assert.match(say, /The fast hand 0 tells them apart/);
  assert.match(say, /the slowest hand 7 has barely moved \(5e-05 of a turn\), so it reads them alike/);
  await setAndWait(page, { pos: 0, pos2: 44, d_model: 4 });
  const far = (await state(page)).texts.find((t) => t.startsWith('Positions 0 and 44, hand by hand'));
  // 44 tokens are 7.003 turns of the fast hand; the slow hand alone tells them apart (no "too")
  assert.match(far, /The fast hand 0 has come round \(7\.003 turns\), so it reads them alike; the slowest hand 1 tells them apart\./);
  await page.close();
});
