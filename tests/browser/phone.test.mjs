// A phone (390 x 844 CSS pixels, touch, device scale 3): the scene list is a menu, the text box takes the
// full width, a vertical swipe scrolls without changing any setting, a tap on a heatmap cell shows that
// cell in a tooltip inside the screen, and a slider moves with a sideways drag, not with a tap.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, heatmapById, launchBrowser, openDemo, waitFrames, watchErrors, state } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

// A one-finger gesture through the points (CSS pixels), a frame between steps.
async function touchPath(page, cdp, points) {
  const at = ([x, y]) => [{ x, y, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(points[0]) });
  for (const p of points.slice(1)) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(p) });
    await waitFrames(page, 1);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await waitFrames(page, 3);
}

test('phone: menu instead of the scene list, full-width text box, swipe scrolls, tap shows a cell', async () => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
  });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const cdp = await context.newCDPSession(page);
  await openDemo(page, 'scene=mha');
  let s = await state(page);
  assert.ok(s.rects['menu/scenes'], 'a Scenes menu in the menu bar');
  const next = s.rects['path/next'];
  assert.ok(next[0] < 120, `the scene starts at the left edge, no scene list beside it: ${JSON.stringify(next)}`);
  const box = await page.locator('input.field[aria-label="text"]').boundingBox();
  assert.ok(box.width > 0.85 * 390 && box.x >= 0 && box.x + box.width <= 390,
    `the text box takes the width: ${JSON.stringify(box)}`);

  // a vertical swipe scrolls the scene and changes no setting, wherever it starts
  const settings = s.settings;
  await touchPath(page, cdp, [[200, 700], [200, 650], [198, 550], [197, 400], [196, 300]]);
  s = await state(page);
  assert.ok(s.rects['path/next'] === undefined || s.rects['path/next'][1] < next[1] - 200,
    `the swipe scrolled the scene up: ${JSON.stringify(s.rects['path/next'])}`);
  assert.deepEqual(s.settings, settings, 'no setting changed');

  // a tap on a visible cell of head 0 shows that cell
  const h = heatmapById(await api(page, 'heatmaps', { values: false }), 'mha/head0');
  const x = h.rect.x + 1.5 * h.rect.w / h.cols, y = h.rect.y + 2.5 * h.rect.h / h.rows;
  assert.ok(y > 0 && y < 844, `head 0 is on screen after the swipe: ${JSON.stringify(h.rect)}`);
  await page.touchscreen.tap(x, y);
  await waitFrames(page, 3);
  const hover = (await state(page)).hover;
  assert.deepEqual([hover?.id, hover?.row, hover?.col], ['mha/head0', 2, 1], JSON.stringify(hover));
  assert.ok(hover.lines.some((l) => /^value /.test(l)), 'the tooltip holds the value');
  assert.ok(!hover.lines.some((l) => /right-click/.test(l)), 'no right-click wording on a touch screen');
  await waitFrames(page, 3);
  const tip = (await state(page)).rects['tooltip/heatmap'];
  assert.ok(tip && tip[0] >= 0 && tip[0] + tip[2] <= 390 && tip[1] >= 0 && tip[1] + tip[3] <= 844,
    `the tooltip lies inside the screen: ${JSON.stringify(tip)}`);
  assert.deepEqual((await state(page)).settings, settings, 'a tap on a cell changes no setting');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone: a sideways drag moves a slider; 800 x 600 keeps the scene list', async () => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await openDemo(page, 'scene=clock');
  const r = (await state(page)).rects['clock/position'];
  assert.ok(r, 'the position slider is reported');
  const y = r[1] + r[3] / 2;
  await page.touchscreen.tap(r[0] + r[2] * 0.8, y);
  await waitFrames(page, 3);
  assert.equal((await state(page)).settings.pos, '1', 'a tap on the slider leaves it alone');
  await touchPath(page, cdp, [[r[0] + 5, y], [r[0] + 20, y], [r[0] + 60, y], [r[0] + 100, y]]);
  const pos = Number((await state(page)).settings.pos);
  assert.ok(pos > 1, `the drag moved the position: ${pos}`);
  await context.close();

  const wide = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await openDemo(wide, 'scene=clock');
  assert.equal((await state(wide)).rects['menu/scenes'], undefined, 'wide enough for the scene list');
  await wide.close();
});
