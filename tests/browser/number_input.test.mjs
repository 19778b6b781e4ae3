// Numeric settings as in a web form: the clock's position takes every value from 1 to 49 by its arrow
// keys, by its + stepper and by a typed value; PageUp / PageDown step a tenth of the range, Home / End go to
// its ends; Shift + drag moves one position per 2 px. One page load for the file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openDemo, waitFrames, api, setAndWait, watchErrors } from './harness.mjs';

let browser, page, errors;
before(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  errors = watchErrors(page);
  await openDemo(page, 'scene=clock&d_model=4&pos=1');
});
after(async () => { if (browser) await browser.close(); });

const pos = async () => Number((await api(page, 'state')).settings.pos);

// Tab from the canvas's first control until the keyboard is on `label`.
async function focusControl(label) {
  await page.focus('#canvas');
  await waitFrames(page, 2);
  for (let i = 0; i < 30; i++) {
    const f = (await api(page, 'state')).focus;
    if (f && f.label === label) return f;
    await page.keyboard.press('Tab');
    await waitFrames(page, 2);
  }
  throw new Error(`Tab never reached ${label}`);
}

test('keys: arrows step the focused position slider one by one from 1 to 49; PageUp/PageDown a tenth; Home/End its ends', async () => {
  await setAndWait(page, { pos: 1 });
  const f = await focusControl('position');
  assert.equal(f.value, '1', 'the announcement gives the value');
  for (let want = 2; want <= 49; want++) {
    await page.keyboard.press('ArrowRight');
    await waitFrames(page, 1);
    assert.equal(await pos(), want, 'ArrowRight is one step');
  }
  assert.equal((await api(page, 'state')).focus.label, 'position', 'the arrows did not move the focus');
  await page.keyboard.press('ArrowLeft');
  await waitFrames(page, 1);
  assert.equal(await pos(), 48, 'ArrowLeft is one step back');
  await page.keyboard.press('PageUp');
  await waitFrames(page, 1);
  assert.equal(await pos(), 48 + 204, 'PageUp is a tenth of 0..2047');
  await page.keyboard.press('PageDown');
  await waitFrames(page, 1);
  assert.equal(await pos(), 48);
  await page.keyboard.press('End');
  await waitFrames(page, 1);
  assert.equal(await pos(), 2047, 'End');
  await page.keyboard.press('Home');
  await waitFrames(page, 1);
  assert.equal(await pos(), 0, 'Home');
});

test('typed: every position from 1 to 49 typed on the focused slider, then Enter', async () => {
  await focusControl('position');
  for (let want = 1; want <= 49; want++) {
    await page.keyboard.type(String(want));
    await page.keyboard.press('Enter');
    await waitFrames(page, 2);
    assert.equal(await pos(), want, `typed ${want}`);
  }
});

test('steppers: + takes the position from 1 to 49 one by one, - steps back; both are named', async () => {
  await setAndWait(page, { pos: 1 });
  const rects = (await api(page, 'state')).rects;
  const plus = rects['increase position'], minus = rects['decrease position'];
  assert.ok(plus && minus, `the position's steppers are drawn: ${Object.keys(rects).join(', ')}`);
  const click = async (r) => {
    await page.mouse.click(r[0] + r[2] / 2, r[1] + r[3] / 2);
    await waitFrames(page, 2);
  };
  for (let want = 2; want <= 49; want++) {
    await click(plus);
    assert.equal(await pos(), want, '+ is one step');
  }
  await click(minus);
  assert.equal(await pos(), 48, '- is one step back');
  await setAndWait(page, { pos: 0 });
  const s = await api(page, 'state');
  assert.ok(s.rects['decrease position'], 'the - stepper stays at 0 (greyed)');
  await click(minus);
  assert.equal(await pos(), 0, 'nothing below 0');
});

test('fine drag: Shift + drag on the position slider moves one position per 2 px', async () => {
  await setAndWait(page, { pos: 500 });
  await page.focus('#canvas');  // the keys go to the app
  await waitFrames(page, 2);
  const r = (await api(page, 'state')).rects['decrease position'];
  // the slider ends just left of its - stepper; press inside it, away from the grab
  const y = r[1] + r[3] / 2, x = r[0] - 60;
  await page.keyboard.down('Shift');
  await page.mouse.move(x, y);
  await page.mouse.down();
  await waitFrames(page, 2);
  const start = await pos();
  await page.mouse.move(x + 20, y, { steps: 5 });
  await waitFrames(page, 2);
  const moved = (await pos()) - start;
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await waitFrames(page, 2);
  assert.ok(Math.abs(moved - 10) <= 1, `20 px with Shift moved ${moved} positions`);
  assert.equal(start, 500, 'a Shift press does not jump to the pointer');
  assert.deepEqual(errors, []);
});
