// Every scene at 390 x 844 (a phone: touch, device scale 3), 800 x 600 and 1280 x 800: nothing is cut off
// at the side. The app reports the scene's visible area, the extent of everything it laid out, each
// section header, named control and heatmap; all of it must lie inside the screen's width or inside a
// region that scrolls sideways (the scene scrolls only up and down, so height is free), a tap on a heatmap cell shows that cell, and the scenes'
// paragraphs write maths as in print (×, √, dₖ, Kᵀ).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, launchBrowser, openDemo, waitFrames, withCleanPage } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const SCREENS = [
  { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
  { name: 'small laptop', viewport: { width: 800, height: 600 } },
  { name: 'laptop', viewport: { width: 1280, height: 800 } },
];

// What lies outside [0, width] in this frame: the laid-out content, named rects, heatmaps.
async function cutOff(page, width) {
  const s = await api(page, 'state');
  const bad = [];
  const check = (what, x, w) => {
    if (x < -0.5 || x + w > width + 0.5) bad.push(`${s.scene}: ${what} spans x ${x.toFixed(1)} .. ${(x + w).toFixed(1)}`);
  };
  const view = s.rects['scene/view'], content = s.rects['scene/content'];
  assert.ok(view && content, `${s.scene} reports its area and content`);
  check('the scene', view[0], view[2]);
  if (content[0] + content[2] > view[0] + view[2] + 1.5) {  // ImGui rounds text sizes up: a pixel of slack
    bad.push(`${s.scene}: content reaches x ${(content[0] + content[2]).toFixed(1)}, the scene ends at ` +
             `${(view[0] + view[2]).toFixed(1)}`);
  }
  // a region that scrolls sideways (hscroll/NAME) may hold wider things, level with it
  const sideways = Object.entries(s.rects).filter(([n]) => n.startsWith('hscroll/')).map(([, r]) => r);
  const inSideways = (y, h) => sideways.some((r) => y >= r[1] - 0.5 && y + h <= r[1] + r[3] + 0.5);
  for (const [name, r] of Object.entries(s.rects)) {
    if (!name.startsWith('tooltip/') && !inSideways(r[1], r[3])) check(name, r[0], r[2]);
  }
  for (const h of await api(page, 'heatmaps', { values: false })) {
    if (!inSideways(h.rect.y, h.rect.h)) check(h.id, h.rect.x, h.rect.w);
  }
  return { bad, s };
}

for (const screen of SCREENS) {
  test(`every scene fits ${screen.viewport.width} x ${screen.viewport.height} (${screen.name})`, async () => {
    const { name, ...options } = screen;
    await withCleanPage(browser, options, async (page) => {
      await openDemo(page, 'scene=start');
      const bad = [], visited = [];
      let tapped = 0;
      for (;;) {  // from Start here to the last scene with the Next button
        const { bad: cut, s } = await cutOff(page, screen.viewport.width);
        const id = s.scene;
        visited.push(id);
        assert.equal(s.error, '', `${id} has no error`);
        bad.push(...cut);
        // maths is written as in print: ×, √, dₖ, Kᵀ
        for (const t of s.texts) {
          if (/sqrt\(|\bd_k\b|K\^T|[\w)] x [\w(]/.test(t)) bad.push(`${id}: ASCII maths in "${t}"`);
        }
        if (screen.hasTouch) {
          // a tap on the first heatmap whose cell (1, 1) is on screen shows that cell
          const maps = (await api(page, 'heatmaps', { values: false })).filter((h) => h.visible && h.rect.y > 0 &&
            h.window[2] > 1 && h.window[3] > 1 && h.rect.y + 2.5 * h.rect.h / h.window[2] < screen.viewport.height);
          if (maps.length) {
            const h = maps[0];
            const [row0, col0, rows, cols] = h.window;
            await page.touchscreen.tap(h.rect.x + 1.5 * h.rect.w / cols, h.rect.y + 1.5 * h.rect.h / rows);
            await waitFrames(page, 3);
            const hover = (await api(page, 'state')).hover;
            assert.deepEqual([hover?.id, hover?.row, hover?.col], [h.id, row0 + 1, col0 + 1], `${id}: a tap shows the cell`);
            tapped++;
          }
        }
        const next = (await api(page, 'state')).rects['path/next'];
        const [x, y] = [next[0] + next[2] / 2, next[1] + next[3] / 2];
        if (screen.hasTouch) await page.touchscreen.tap(x, y); else await page.mouse.click(x, y);
        await waitFrames(page, 4);
        if ((await api(page, 'state')).scene === id) break;  // Next is disabled on the last scene
        assert.ok(visited.length < 20, 'Next ends at the last scene');
      }
      assert.ok(visited.length >= 9 && visited[0] === 'start' && visited.includes('train'), visited.join(' > '));
      assert.deepEqual(bad, [], 'nothing is cut off at the side');
      if (screen.hasTouch) assert.ok(tapped >= 3, `taps were checked on ${tapped} scenes`);
    });
  });
}

// The encoder's diagram scrolls only sideways: the wheel over it scrolls the scene (its scrollbar once left
// it a few pixels of vertical room and it kept the wheel at 800 x 600), a sideways wheel scrolls the diagram.
test('scrolling: the wheel over the encoder diagram moves the scene, a sideways wheel the diagram', async () => {
  await withCleanPage(browser, { viewport: { width: 800, height: 600 } }, async (page) => {
    await openDemo(page, 'scene=encoder');
    const input = (await api(page, 'heatmaps', { values: false })).find((m) => m.id === 'encoder/input');
    const next0 = (await api(page, 'state')).rects['path/next'];
    await page.mouse.move(input.rect.x + input.rect.w / 2, Math.min(590, input.rect.y + input.rect.h / 2));
    await page.mouse.wheel(0, 200);
    await waitFrames(page, 3);
    const next1 = (await api(page, 'state')).rects['path/next'];
    assert.ok(next1[1] < next0[1] - 50, `the scene scrolled: Next at y ${next0[1]} -> ${next1[1]}`);

    const maps = await api(page, 'heatmaps', { values: false });
    const last = maps.filter((m) => m.id.startsWith('encoder/')).sort((a, b) => b.rect.x - a.rect.x)[0];
    const flow = (await api(page, 'state')).rects['hscroll/flow'];
    const top = Math.max(flow[1], 40), bottom = Math.min(flow[1] + flow[3], 590);
    assert.ok(bottom > top + 20, `the diagram is on screen: ${flow}`);
    await page.mouse.move(flow[0] + flow[2] / 2, (top + bottom) / 2);
    await page.mouse.wheel(300, 0);
    await waitFrames(page, 3);
    const moved = (await api(page, 'heatmaps', { values: false })).find((m) => m.id === last.id);
    assert.ok(moved.rect.x < last.rect.x - 20, `${last.id} moved left: x ${last.rect.x} -> ${moved.rect.x}`);
  });
});

// A region that scrolls up and down (the clock's 32 dials) takes the wheel until its end, then the scene
// scrolls on, as a browser chains scrolling; back up the same way.
test('scrolling: the dials scroll to their end, then the wheel scrolls the scene', async () => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=clock&d_model=64');
    const dials = (await api(page, 'state')).rects['clock/dials'];
    assert.ok(dials, 'the dials are drawn');
    const y = () => api(page, 'state').then((s) => s.rects['clock/dials'][1]);
    const y0 = await y();
    await page.mouse.move(dials[0] + 60, Math.min(780, dials[1] + dials[3] / 2));
    for (let i = 0; i < 25 && (await y()) > y0 - 100; i++) {
      await page.mouse.wheel(0, 150);
      await waitFrames(page, 2);
    }
    assert.ok((await y()) < y0 - 100, `past the dials' end the scene scrolled: dials at y ${y0} -> ${await y()}`);
  });
});
