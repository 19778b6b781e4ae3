// Lesson mode in the browser: caption=, lock=, hide=, theme=light and steps= (inline and a file) do what
// they say, in state() and on screen; bad values give a message in place and nothing becomes HTML.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openDemo, waitFrames, api, screenshot, withCleanPage } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser.close(); });

const centre = (r) => [Math.round(r[0] + r[2] / 2), Math.round(r[1] + r[3] / 2)];
const brightness = (rgb) => (rgb[0] + rgb[1] + rgb[2]) / 3;

test('lesson: caption, lock, hide and theme=light, in state and pixels; hostile text stays text', async () => {
  await withCleanPage(browser, {}, async (page) => {
    let dialogs = 0;
    page.on('dialog', async (d) => { dialogs += 1; await d.dismiss(); });
    const caption = '<img src=x onerror=alert(1)> Watch the fast hand';
    await openDemo(page, 'scene=clock&d_model=4&pos=44&lock=pos&theme=light&hide=menu,scenes,path&caption=' +
                         encodeURIComponent(caption));
    let s = await api(page, 'state');
    assert.equal(s.lesson.caption, caption);
    assert.equal(s.settings.theme, 'light');
    assert.equal(s.theme.dark, false);
    assert.ok(s.rects['lesson/caption'], 'the caption is drawn: ' + Object.keys(s.rects));
    assert.ok(s.texts.includes(caption), 'the caption is drawn as text');
    assert.ok(s.rects['lesson/locked'] && s.texts.some((t) => /Fixed by this lesson: pos/.test(t)));
    assert.equal(s.rects['path/next'], undefined, 'hide=path hides Back / Next');
    assert.equal(s.rects['menu/scenes'], undefined);
    assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0, 'no element was made');
    assert.equal(dialogs, 0);

    // light: the window behind the text is light, the caption's text dark
    let shot = await screenshot(page);
    const [cx, cy] = centre(s.rects['lesson/caption']);
    assert.ok(brightness(shot.at(5, shot.height - 5)) > 200, 'a light background: ' + shot.at(5, shot.height - 5));
    const r = s.rects['lesson/caption'];
    let darkest = 255;
    for (let x = Math.round(r[0]); x < r[0] + r[2]; x += 1) darkest = Math.min(darkest, brightness(shot.at(x, cy)));
    assert.ok(darkest < 90, `dark text on the caption line (darkest ${darkest})`);

    // lock: a drag on the position slider leaves it at 44; the page's own set() may still change it
    const [sx, sy] = centre(s.rects['clock/position']);
    await page.mouse.move(sx, sy);
    await page.mouse.down();
    await page.mouse.move(sx + 120, sy, { steps: 6 });
    await page.mouse.up();
    await waitFrames(page, 3);
    s = await api(page, 'state');
    assert.equal(Number(s.settings.pos), 44, 'a locked setting stays');
    assert.equal(Number(s.settings.pos2), 0, 'the slider beside it was not touched');
    await page.evaluate(() => window.attentionDemo.set({ pos: 45 }));
    await waitFrames(page, 3);
    s = await api(page, 'state');
    assert.equal(Number(s.settings.pos), 45, 'the course page sets a locked setting');

    // the same view in the dark look
    await page.evaluate(() => window.attentionDemo.set({ theme: 'dark' }));
    await waitFrames(page, 3);
    shot = await screenshot(page);
    assert.ok(brightness(shot.at(5, shot.height - 5)) < 60, 'a dark background: ' + shot.at(5, shot.height - 5));
    assert.equal((await api(page, 'state')).theme.dark, true);

    // font_scale: the caption's line is 1.5 times as tall, drawn from a font built 1.5 times as large
    const small = await api(page, 'state');
    await page.evaluate(() => window.attentionDemo.set({ font_scale: 1.5 }));
    await waitFrames(page, 4);
    const big = await api(page, 'state');
    const ratio = big.rects['lesson/caption'][3] / small.rects['lesson/caption'][3];
    assert.ok(Math.abs(ratio - 1.5) < 0.15, `caption height ratio ${ratio}`);
    assert.ok(Math.abs(big.font.pixel_size / small.font.pixel_size - 1.5) < 0.1,
              `font pixel size ${small.font.pixel_size} -> ${big.font.pixel_size}`);
  });
});

test('lesson: steps go Back and Next, from JSON in the link and from a file; bad ones say why', async () => {
  await withCleanPage(browser, {}, async (page) => {
    const steps = [{ caption: 'One', settings: { scene: 'clock', d_model: 4, pos: 3 } },
                   { caption: 'Two', settings: { scene: 'mha', heads: 2 } }];
    await openDemo(page, 'steps=' + encodeURIComponent(JSON.stringify(steps)));
    let s = await api(page, 'state');
    assert.deepEqual([s.lesson.steps, s.lesson.step, s.scene, s.settings.pos, s.lesson.caption],
                     [2, 1, 'clock', '3', 'One']);
    assert.ok(s.texts.some((t) => t === 'One'));
    const [nx, ny] = centre(s.rects['lesson/next']);
    await page.mouse.click(nx, ny);
    await waitFrames(page, 4);
    s = await api(page, 'state');
    assert.deepEqual([s.lesson.step, s.scene, s.settings.heads, s.lesson.caption], [2, 'mha', '2', 'Two']);
    assert.match(s.query, /step=2/);
    await page.evaluate(() => window.attentionDemo.set({ step: 1 }));
    await waitFrames(page, 4);
    s = await api(page, 'state');
    assert.deepEqual([s.lesson.step, s.scene, s.settings.pos], [1, 'clock', '3']);

    // a steps file next to the page (dist/lesson-steps.json); another site's is refused, not fetched
    const requests = [];
    page.on('request', (req) => requests.push(req.url()));
    await openDemo(page, 'steps=lesson-steps.json');
    await page.waitForFunction(() => window.attentionDemo.state().lesson.steps > 0);
    await waitFrames(page, 3);
    s = await api(page, 'state');
    assert.equal(s.lesson.steps, 4);
    assert.deepEqual([s.scene, s.settings.pos], ['clock', '44']);
    await openDemo(page, 'steps=' + encodeURIComponent('https://example.invalid/steps.json'));
    await page.waitForFunction(() => window.attentionDemo.state().notes.some((n) => /own site/.test(n)));
    assert.ok(!requests.some((u) => new URL(u).hostname === 'example.invalid'), 'no request to another site');

    // bad values: a note in place each, and the app goes on
    await openDemo(page, 'scene=clock&hide=controls,bogus&steps=' + encodeURIComponent('[{"caption": "x"'));
    s = await api(page, 'state');
    assert.ok(s.notes.some((n) => /ignored hide=controls,bogus/.test(n)), JSON.stringify(s.notes));
    assert.ok(s.notes.some((n) => /steps.*not valid JSON/.test(n)), JSON.stringify(s.notes));
    assert.equal(s.lesson.steps, 0);
    await openDemo(page, 'steps=' + encodeURIComponent('[{"settings": {"pos": "far"}}]'));
    s = await api(page, 'state');
    assert.ok(s.notes.some((n) => /step 1: ignored pos=far/.test(n)), JSON.stringify(s.notes));

    // a locked text: its box is shown but cannot be typed in
    await openDemo(page, 'scene=mha&lock=text');
    assert.deepEqual(await page.$$eval('input.field', (els) => els.map((e) => [e.hidden, e.readOnly])), [[false, true]]);
  });
});
