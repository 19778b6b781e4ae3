// The free-text fields are real <input> elements over the canvas: typing, pasting and IME composition with
// emoji, combining marks and right-to-left text reach state() exactly as entered, and the input lies where
// the app drew the field.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, launchBrowser, openDemo, waitFrames, watchErrors } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const field = (page, label) => page.locator(`input.field[aria-label="${label}"]`);

// Replaces the field's text: focus, select all, then `enter(page)` puts the new text in.
async function replaceText(page, label, enter) {
  await field(page, label).click();
  await page.keyboard.press('Control+A');
  await enter(page);
  await waitFrames(page, 3);
  return (await api(page, 'state')).settings.text;
}

describe('text fields', () => {
  test('typed, pasted and composed text reaches state() exactly', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await openDemo(page, 'scene=mha');
    const input = field(page, 'text');
    assert.equal(await input.count(), 1, 'one <input> for the multi-head scene\'s text');
    assert.equal(await input.inputValue(), (await api(page, 'state')).settings.text, 'it shows the app\'s text');
    const box = await input.boundingBox();
    assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= 1280 && box.y + box.height <= 800,
      `inside the viewport: ${JSON.stringify(box)}`);
    assert.ok(box.width > 200 && box.height > 10, `a usable size: ${JSON.stringify(box)}`);

    // typing, with an emoji: no replacement character, no trailing NUL
    assert.equal(await replaceText(page, 'text', (p) => p.keyboard.type('cake 😀 end', { delay: 10 })),
      'cake 😀 end');
    await page.keyboard.press('End');
    await page.keyboard.type('X');
    await waitFrames(page, 3);
    assert.equal((await api(page, 'state')).settings.text, 'cake 😀 endX', 'editing after an emoji');

    // combining marks (e + U+0301) and right-to-left text, inserted as a keyboard or dictation does
    const mixed = 'cafe\u0301 שלום عربى 1';
    assert.equal(await replaceText(page, 'text', (p) => p.keyboard.insertText(mixed)), mixed);
    assert.equal(await input.getAttribute('dir'), 'auto', 'the browser picks the direction per text');

    // paste from the system clipboard
    const pasted = 'Refund the 🎂, not the delivery fee.';
    await page.evaluate((t) => navigator.clipboard.writeText(t), pasted);
    assert.equal(await replaceText(page, 'text', (p) => p.keyboard.press('Control+V')), pasted);

    // IME composition: nothing arrives while composing, the committed text when it ends
    const cdp = await context.newCDPSession(page);
    await field(page, 'text').click();
    await page.keyboard.press('Control+A');
    await cdp.send('Input.imeSetComposition', { text: 'にほん', selectionStart: 3, selectionEnd: 3 });
    await waitFrames(page, 3);
    assert.equal((await api(page, 'state')).settings.text, pasted, 'no half-composed text reaches the app');
    assert.equal(await input.inputValue(), 'にほん', 'the composition is left alone in the input');
    await cdp.send('Input.insertText', { text: '日本語のメール' });
    await waitFrames(page, 3);
    assert.equal((await api(page, 'state')).settings.text, '日本語のメール', 'the committed text');

    // set() from the page updates the input
    await page.evaluate(() => window.attentionDemo.set({ text: 'set from the page' }));
    await waitFrames(page, 3);
    assert.equal(await input.inputValue(), 'set from the page');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a long text reaches the app after a pause in typing: one recompute for a burst of keys', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await openDemo(page, 'scene=mha');
    const long = Array.from({ length: 600 }, (_, i) => ['refund', 'the', 'cake', 'not', 'fee'][i % 5]).join(' ');  // > 2000 characters
    await page.evaluate((t) => window.attentionDemo.set({ text: t }), long);
    await waitFrames(page, 3);
    // what one change of the text costs in recomputes (the counter counts every cached stage)
    let before = (await api(page, 'frameStats')).recomputes;
    await page.evaluate((t) => window.attentionDemo.set({ text: t + ' x' }), long);
    await waitFrames(page, 3);
    const one = (await api(page, 'frameStats')).recomputes - before;
    await page.evaluate((t) => window.attentionDemo.set({ text: t }), long);
    await waitFrames(page, 3);
    const input = field(page, 'text');
    await input.click();
    await page.keyboard.press('End');
    before = (await api(page, 'frameStats')).recomputes;
    await page.keyboard.type(' cold late', { delay: 15 });
    assert.equal(await input.evaluate((el) => el.classList.contains('pending')), true, 'the input shows it waits');
    assert.equal((await api(page, 'state')).settings.text, long, 'nothing sent while typing');
    await page.waitForTimeout(450);
    await waitFrames(page, 3);
    assert.equal((await api(page, 'state')).settings.text, long + ' cold late', 'the whole burst arrived');
    const recomputes = (await api(page, 'frameStats')).recomputes - before;
    assert.ok(one >= 1 && recomputes === one, `ten keys cost what one change costs: ${recomputes} vs ${one}`);
    assert.equal(await input.evaluate((el) => el.classList.contains('pending')), false);
    await page.close();
  });

  test('the input follows its field and goes when the scene has none', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await openDemo(page, 'scene=mha');
    assert.equal(await field(page, 'text').count(), 1);
    await page.evaluate(() => window.attentionDemo.set({ scene: 'clock' }));
    await waitFrames(page, 3);
    assert.equal(await page.locator('input.field').count(), 0, 'the clock scene has no text field');
    // the exercises' answer: Enter checks it
    await page.evaluate(() => window.attentionDemo.set({ scene: 'exercises' }));
    await waitFrames(page, 3);
    const answer = page.locator('input.field[aria-label="your answer"]').first();
    await answer.click();
    await page.keyboard.type('44');
    await page.keyboard.press('Enter');
    await waitFrames(page, 3);
    const q = (await api(page, 'state')).shown.questions[0];
    assert.equal(q.answered, true, `Enter checked the first answer: ${JSON.stringify(q)}`);
    await page.close();
  });
});
