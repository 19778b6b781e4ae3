// The lesson's points and the app's own wording, read back through attentionDemo.state().texts (every
// paragraph the last frame drew) and checked against the numbers the page reports: a caption may only
// say what its numbers show. One browser and one page for the whole file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openDemo, setAndWait, api, withCleanPage, waitFrames, state } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

// The paragraphs of the last frame that contain `part`.
const find = (s, part) => s.texts.filter((t) => t.includes(part));
function assertSays(s, part, what) {
  assert.ok(find(s, part).length > 0, `${what}: no paragraph says "${part}"; the page says:\n${s.texts.join('\n')}`);
}
function assertNotSays(s, part, what) {
  assert.deepEqual(find(s, part), [], `${what}: a paragraph says "${part}"`);
}

test('lesson text: every caption matches its numbers, and every lesson point is on screen', async () => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=positions&d_model=64');
    let s = await state(page);
    assertSays(s, 'Every diagonal has one value', 'even d_model');
    assertSays(s, 'Positions are soft', 'soft positions');
    assertSays(s, 'exactly the 37th', 'soft positions');

    s = await (setAndWait(page, { d_model: 5 }).then(() => state(page)));
    assertNotSays(s, 'Every diagonal has one value', 'odd d_model');
    assertSays(s, 'd_model 5 is odd', 'odd d_model');
    assertSays(s, 'not constant', 'odd d_model');

    // order blindness: "identical" exactly when the page's difference is 0, never "rounding" then
    await setAndWait(page, { scene: 'order', positions: 'sinusoidal' });
    s = await state(page);
    const diff = s.shown.no_positions_difference;
    assert.equal(typeof diff, 'number');
    const sentence = find(s, 'Without positions:');
    assert.equal(sentence.length, 1, sentence.join('\n'));
    // the page sums both emails' numbers in the same order, so the difference is exactly 0 here
    assert.equal(diff, 0, 'the two emails without positions differ in the page');
    assert.match(sentence[0], /identical, to the last bit/);
    assert.doesNotMatch(sentence[0], /rounding/);
    assertSays(s, '\u20b9850 cake', 'the stakes');
    assertSays(s, '\u20b960 delivery fee', 'the stakes');
    const conf = s.shown.emails.find((e) => e.positions === 'none').confidence;
    assertSays(s, `gives both ${conf.toFixed(3)}`, 'the untrained router\'s one confidence');
    assertSays(s, '0.87', 'the lesson\'s illustration');

    // multi-head: value projections, causal baselines computed for row i's i + 1 keys
    await setAndWait(page, { scene: 'mha' });
    s = await state(page);
    assertSays(s, 'its own query, key and value projections', 'multi-head intro');
    assertSays(s, 'scaled_dot_product_attention', 'fused kernels');
    assertSays(s, 'Nobody assigns a head its job', 'where heads break');
    assertSays(s, 'hints, not proofs', 'where heads break');
    const t = s.shown.tokens.length;
    assertSays(s, `ln ${t} = ${Math.log(t).toFixed(2)}`, 'non-causal entropy baseline');
    await setAndWait(page, { causal: 1 });
    s = await state(page);
    let ln = 0, inv = 0;
    for (let i = 0; i < t; i++) ln += Math.log(i + 1), inv += 1 / (i + 1);
    assertSays(s, `${(ln / t).toFixed(2)} and ${(inv / t).toFixed(3)} averaged over the ${t} rows`, 'causal baselines');
    assertNotSays(s, `ln ${t} = `, 'causal baselines');

    // learned tables: the BERT and GPT-2 sizes give the error for the first slot past the end
    for (const slots of [512, 1024]) {
      await setAndWait(page, { scene: 'schemes', slots, length: slots + 1 });
      s = await state(page);
      const err = s.shown.limits.past_end_error;
      assert.match(err, new RegExp(`position ${slots}\\b`), err);
      assert.match(err, new RegExp(`${slots} slots`), err);
      assertSays(s, `asked for position ${slots}, the first one past its end`, `${slots} slots`);
    }
    assertSays(s, 'flat in expectation at every offset except 0', 'offset view');
    // the schemes scene's even-attention entropy follows the causal mask too
    await setAndWait(page, { causal: 1 });
    s = await state(page);
    const ts = s.shown.tokens.length;
    let lnS = 0;
    for (let i = 0; i < ts; i++) lnS += Math.log(i + 1);
    assertSays(s, `Entropy of evenly spread attention: ${(lnS / ts).toFixed(3)}, as the causal mask`, 'schemes, causal');
    assertNotSays(s, `ln ${ts} = `, 'schemes, causal');
    assertNotSays(s, 'flat in expectation', 'offset view with the causal mask');
    assertSays(s, 'only offsets 0 and above have points', 'offset view with the causal mask');

    await setAndWait(page, { scene: 'clock', d_model: 4, pos: 44, pos2: 0 });
    s = await state(page);
    assertSays(s, `about ${(180 / Math.PI).toFixed(1)} degrees`, 'radians');
    assertSays(s, 'wherever you start', 'fixed rotation');
    assert.ok(s.shown.rotation_check < 1e-5, `rotating the readings by k x speed: ${s.shown.rotation_check}`);
    assertSays(s, 'is it close to position 0\'s too?', 'exercise 1 in full');

    // scenes whose paragraphs alone are checked: each scene, then its [part, what] pairs
    for (const [scene, says] of [
      ['word', [['Adding keeps the width at d_model = 4', 'add, not append']]],
      ['encoder', [['six of these', 'the stacked encoder'], ['road the gradients take back', 'the skip path'],
                   ['LayerNorm standardises each row', 'LayerNorm']]],
      ['exercises', [['is it close to position 0\'s too?', 'exercise 1 in the exercises scene']]],
    ]) {
      await setAndWait(page, { scene });
      s = await state(page);
      for (const [part, what] of says) assertSays(s, part, what);
    }
  });
});

test('lesson text: the d_k = 1 button turns the causal mask off, so its two-keys sentence holds', async () => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=mha&causal=1');
    // scroll the scene until the button is on the canvas, then click it
    let r;
    for (let i = 0; i < 40; i++) {
      r = (await state(page)).rects['mha/narrowest'];
      if (r && r[1] > 0 && r[1] + r[3] < 790) break;
      await page.mouse.move(640, 400);
      await page.mouse.wheel(0, 300);
      await waitFrames(page, 3);
    }
    assert.ok(r && r[1] + r[3] < 790, `the button is on screen: ${r}`);
    await page.mouse.click(r[0] + r[2] / 2, r[1] + r[3] / 2);
    await waitFrames(page, 4);
    const s = await state(page);
    assert.equal(s.settings.causal, '0', 'the button turned causal off');
    assert.equal(s.settings.d_model, '16');
    assert.equal(s.settings.heads, '16');
    assertSays(s, 'Here dₖ = 1', 'the computed d_k = 1 line');
    assertNotSays(s, 'With the causal mask row i ranks only', 'no mask reason once the mask is off');
  });
});
