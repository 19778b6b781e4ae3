// Hardening tests of the browser app (issue 9): embed.js refuses script URLs, strings reach the module
// through its heap, a module crash is shown and stops the API, strict CSP (WebGL context loss, no network
// after load and no HTML from untrusted text: hardening_runtime.test.mjs). One browser for the whole file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, openDemo, waitFrames, setAndWait, api, baseUrl, withCleanPage, watchErrors, canvasInfo,
  cellCentre, heatmapById, assertStillRuns,
} from './harness.mjs';
import { assertHeatmapPixels } from './sampled_pixels.mjs';

// The strictest policy the README promises: nothing but the site itself, compiled wasm, and Trusted Types for
// every script sink (no img-src: the icon is a file of the site's).
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; require-trusted-types-for 'script'";

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

const withPage = (options, fn) => withCleanPage(browser, options, fn);

// A page whose uncaught errors are expected (the crash tests): the caller checks them itself.
async function withRawPage(fn) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await fn(page, watchErrors(page));
  } finally {
    await context.close();
  }
}

// What an API call does: {value} or {error: message}.
function tryApi(page, expression) {
  return page.evaluate(async (src) => {
    try {
      return { value: await (0, eval)(src) };
    } catch (e) {
      return { error: String(e && e.message || e), isError: e instanceof Error };
    }
  }, expression);
}

// ---------------------------------------------------------------------------------------------------

const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');

test('embed.js: data-src may only be http(s) or relative; javascript:, data: and vbscript: make no iframe', async () => {
  const bad = [
    'javascript:alert(document.domain)//',
    'JavaScript:window.top.pwned=1//',
    ' \tjava\nscript:window.top.pwned=2//',
    'data:text/html,<script>parent.pwned=3</script>',
    'vbscript:msgbox(1)',
  ];
  const good = ['', './', baseUrl()];  // the default (next to embed.js), relative, absolute http
  const divs = [...good, ...bad].map((src, i) =>
    `<div id="d${i}" data-attention-demo="?scene=clock" data-height="300" data-src="${escapeAttr(src)}"></div>`);
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>course page</title></head><body>
${divs.join('\n')}
<script src="embed.js"></script></body></html>`;
  await withPage({}, async (page) => {
    const dialogs = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
    const warnings = [];
    page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
    await page.route(baseUrl() + 'course-page.html', (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(baseUrl() + 'course-page.html', { waitUntil: 'load' });
    // embed.js adds the course page's theme, and a channel for its handle in the #hash
    const want = baseUrl() + 'index.html?scene=clock&embed=1&view=figure&theme=light';
    const bare = (url) => url && url.split('#')[0];
    const frames = await page.evaluate(() => Array.from(document.querySelectorAll('[data-attention-demo]'), (d) => {
      const f = d.querySelector('iframe');
      return { id: d.id, src: f ? f.src : null, text: d.textContent };
    }));
    good.forEach((src, i) => assert.equal(bare(frames[i].src), want, `data-src ${JSON.stringify(src)} embeds the demo`));
    bad.forEach((src, i) => {
      const f = frames[good.length + i];
      assert.equal(f.src, null, `data-src ${JSON.stringify(src)} makes no iframe`);
      assert.match(f.text, /http\(s\) or a relative URL/, 'the placeholder says why');
    });
    // the API refuses the same, and every refusal is a console warning
    const viaApi = await page.evaluate(() => {
      const d = document.createElement('div');
      document.body.appendChild(d);
      return window.AttentionDemo.embed(d, '?scene=clock', { src: 'javascript:alert(1)//' }) === null &&
        d.querySelector('iframe') === null;
    });
    assert.equal(viaApi, true, 'AttentionDemo.embed(..., {src: "javascript:..."}) returns null, no iframe');
    assert.equal(warnings.filter((w) => /refused the demo location/.test(w)).length, bad.length + 1, warnings.join('\n'));
    // the embedded demo still runs (the first iframe, whose src was checked above; the app rewrites its URL
    // once it runs, so the frame is found by its element), and nothing ran a script
    const first = await page.$('[data-attention-demo] iframe');
    const frame = first && await first.contentFrame();
    assert.ok(frame, `the demo iframe loaded (frames: ${page.frames().map((f) => f.url()).join(', ')})`);
    await frame.waitForFunction(() => window.attentionDemo && document.body.dataset.state === 'ready', null, { timeout: 60000 });
    assert.equal((await frame.evaluate(() => window.attentionDemo.state())).scene, 'clock');
    await page.waitForTimeout(300);
    assert.deepEqual(dialogs, [], 'no dialog opened');
    assert.equal(await page.evaluate(() => window.pwned), undefined, 'no script ran on the course page');
  });
});

test('strings reach the module through its heap: 2 to 6 MB strings in set(), exportCsv(), heatmaps() and loadModel() leave the page answering', async () => {
  await withPage({}, async (page) => {
    await openDemo(page, 'scene=mha&heads=2');
    // 2e6 characters: 8 MB through ccall's stack (5 MB) used to kill the module
    const big = await tryApi(page, "window.attentionDemo.set(JSON.stringify({text: 'a'.repeat(2e6)}))");
    assert.equal(big.error, undefined, `set() with a 2 MB text answered: ${big.error}`);
    assert.equal(typeof big.value.ok, 'boolean', 'set() answers {ok, notes}');
    await waitFrames(page, 3);
    // every other string argument takes the same path
    const csv = await tryApi(page, "window.attentionDemo.exportCsv('x'.repeat(3e6))");
    assert.match(csv.error || '', /no heatmap/, `exportCsv(3 MB id) is an ordinary error: ${csv.error}`);
    const one = await tryApi(page, "window.attentionDemo.heatmaps({id: 'x'.repeat(3e6)})");
    assert.equal(one.error, undefined, `heatmaps({id: 3 MB}) answered: ${one.error}`);
    const model = await tryApi(page, "window.attentionDemo.loadModel('{' + ' '.repeat(6e6), 'big.json')");
    assert.equal(model.error, undefined, `loadModel(6 MB) answered: ${model.error}`);
    assert.equal(model.value.ok, false, 'a broken model file is refused');
    // still alive: frames continue and settings apply
    await waitFrames(page, 3);
    const r = await setAndWait(page, { scene: 'clock', pos: 7 });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal((await api(page, 'state')).settings.pos, '7');
  });
});

test('set() with JSON nested 100,000 deep is refused with a note, ten times, and the page keeps answering', async () => {
  await withPage({}, async (page) => {
    await openDemo(page, 'scene=mha&heads=2');
    // ten times: the stack overflow it caused used to leak the module's stack and break on the seventh
    const deep = [
      "'{\"text\":' + '['.repeat(1e5) + ']'.repeat(1e5) + '}'",         // arrays in a value
      "'{\"pos\":' + '{\"a\":'.repeat(1e5) + '1' + '}'.repeat(1e5) + '}'",  // objects in a value
    ];
    for (let i = 0; i < 10; i++) {
      const nested = await tryApi(page, `window.attentionDemo.set(${deep[i % 2]})`);
      assert.equal(nested.error, undefined, `set() with JSON nested 100,000 deep, try ${i + 1}: ${nested.error}`);
      assert.equal(nested.value.ok, false, 'nested JSON is refused');
      assert.ok(nested.value.notes.length > 0 && nested.value.notes.every((n) => typeof n === 'string' && n.length < 2000),
        `with a short note: ${JSON.stringify(nested.value.notes).slice(0, 300)}`);
    }
    // still alive: frames continue and settings apply
    await waitFrames(page, 3);
    await assertStillRuns(page);
  });
});

test('a crash of the module is shown in place of the canvas, and API calls then say the app stopped', async () => {
  const stoppedPage = async (page, why) => {
    await page.waitForFunction(() => document.body.dataset.state === 'crashed', null, { timeout: 15000 });
    assert.match(await page.locator('#status').innerText(), /stopped unexpectedly/, why);
    assert.equal(await page.locator('#status').isVisible(), true, `${why}: the message is visible`);
    assert.equal(await page.locator('#canvas').isVisible(), false, `${why}: no frozen canvas`);
    for (const call of ['window.attentionDemo.state()', 'window.attentionDemo.set({pos: 3})', "window.attentionDemo.exportCsv('a')"]) {
      const r = await tryApi(page, call);
      assert.equal(r.isError, true, `${why}: ${call} throws an Error`);
      assert.match(r.error, /^attentionDemo: the app stopped/, `${why}: ${call}`);
    }
    return page.locator('#detail').innerText();
  };

  // 1. a trap inside the module outside any API call (as in a frame): a bad pointer
  await withRawPage(async (page, errors) => {
    await openDemo(page, 'scene=positions');
    assert.equal((await api(page, 'state')).scene, 'positions', 'answers before');
    await page.evaluate(() => setTimeout(() => window.Module._attn_heatmaps(1, -16), 0));
    const detail = await stoppedPage(page, 'trap');
    assert.match(detail, /memory access out of bounds/, 'the details name the trap');
    assert.ok(errors.some((e) => /memory access out of bounds/.test(e)), 'it was an uncaught trap');
  });

  // 2. abort() of the Emscripten runtime (a global in this non-modular build)
  await withRawPage(async (page) => {
    await openDemo(page, 'scene=clock');
    assert.equal(await page.evaluate(() => typeof window.abort), 'function');
    await page.evaluate(() => setTimeout(() => window.abort('forced by the hardening test'), 0));
    assert.match(await stoppedPage(page, 'abort'), /forced by the hardening test/);
  });

  // 3. a trap during an API call (simulated: the export throws what a trap throws)
  await withRawPage(async (page, errors) => {
    await openDemo(page, 'scene=clock');
    const frame = await tryApi(page, "window.Module._attn_frame_stats = () => { throw new WebAssembly.RuntimeError('memory access out of bounds'); }; window.attentionDemo.frameStats()");
    assert.match(frame.error, /^attentionDemo: the app stopped/, 'the failing call says the app stopped');
    await stoppedPage(page, 'trap in a call');
    assert.deepEqual(errors, [], 'nothing uncaught');
  });
});

test('a script error outside the module is shown above the canvas as text, and the demo carries on', async () => {
  await withRawPage(async (page, errors) => {
    const dialogs = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
    await openDemo(page, 'scene=clock');
    assert.equal(await page.locator('#notice').isVisible(), false, 'no note at first');
    await page.evaluate(() => setTimeout(() => { throw new Error('boom <img src=x onerror=alert(1)>'); }, 0));
    await page.waitForFunction(() => !document.getElementById('notice').hidden, null, { timeout: 10000 });
    const text = await page.locator('#notice-text').innerText();
    assert.match(text, /boom <img src=x onerror=alert\(1\)>/, 'the message, as plain text');
    assert.equal(await page.locator('img').count(), 0, 'no element made from it');
    assert.equal(errors.length, 1, errors.join('\n'));
    // still running
    await waitFrames(page, 3);
    assert.equal((await setAndWait(page, { pos: 9 })).ok, true);
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
    // dismissed, then an unhandled rejection shows again
    await page.locator('#notice-close').click();
    assert.equal(await page.locator('#notice').isVisible(), false);
    await page.evaluate(() => { Promise.reject(new Error('rejected on purpose')); });
    await page.waitForFunction(() => !document.getElementById('notice').hidden, null, { timeout: 10000 });
    assert.match(await page.locator('#notice-text').innerText(), /rejected on purpose/);
    assert.deepEqual(dialogs, []);
  });
});

test('strict Content-Security-Policy: the page and its compute worker load, draw the right colours and report no violation', async () => {
  const initScript = () => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation',
      (e) => window.cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
  };
  await withRawPage(async (page, errors) => {
    await page.addInitScript(initScript);
    let served = 0;
    await page.route('**/*', async (route) => {
      const response = await route.fetch();
      served++;
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': CSP } });
    });
    await openDemo(page, 'scene=positions&d_model=8&count=12');
    assert.ok(served >= 5, `every file came with the header (${served} responses)`);
    await assertHeatmapPixels(page, ['positions/table'], 3);
    // scene switches, a hover (cursor), an export
    for (const scene of ['clock', 'mha', 'encoder', 'positions']) assert.equal((await setAndWait(page, { scene })).ok, true);
    const info = await canvasInfo(page);
    const h = heatmapById(await api(page, 'heatmaps', { values: false }), 'positions/table');
    const p = cellCentre(info, h, 2, 3);
    await page.mouse.move(p.x, p.y);
    await waitFrames(page, 3);
    assert.equal((await api(page, 'state')).hover.id, 'positions/table', 'hover works');
    assert.match(await api(page, 'exportCsv', 'positions/table'), /\n/);
    // the Train scene starts the compute worker, under the policy too (a violation would stop it; it would
    // then not report ready)
    assert.equal(await page.evaluate(() => window.attentionDemo.timing.worker_ready_ms), null, 'not needed before');
    assert.equal((await setAndWait(page, { scene: 'train' })).ok, true);
    await page.waitForFunction(() => window.attentionDemo.timing.worker_ready_ms !== null, null, { timeout: 20000 });
    assert.deepEqual(await page.evaluate(() => window.cspViolations), [], 'no CSP violation');
    assert.deepEqual(errors, [], 'no console error');
    // the header is in force: an inline script is refused (Trusted Types refuses its text, or script-src
    // refuses to run it: either is a violation)
    await page.evaluate(() => {
      try {
        const s = document.createElement('script');
        s.textContent = 'window.inlineRan = true;';
        document.body.appendChild(s);
      } catch (e) { window.inlineRefused = String(e); }
    });
    await page.waitForFunction(() => window.cspViolations.length > 0, null, { timeout: 5000 });
    assert.equal(await page.evaluate(() => window.inlineRan), undefined, 'the inline script did not run');
  });
});

test('strict Content-Security-Policy with Trusted Types, in an iframe: the demo starts and nothing is reported', async () => {
  await withRawPage(async (page, errors) => {
    await page.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI}`));
    });
    const host = baseUrl() + 'csp-host.html';
    await page.route('**/*', async (route) => {
      if (route.request().url() === host) {
        await route.fulfill({ status: 200, headers: { 'content-type': 'text/html', 'content-security-policy': CSP },
          body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title><link rel="icon" href="favicon.svg"></head>' +
                '<body><iframe id="f" src="index.html?scene=clock&amp;d_model=4&amp;pos=44&amp;embed=1" width="900" height="600" title="demo"></iframe></body></html>' });
        return;
      }
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': CSP } });
    });
    await page.goto(host, { waitUntil: 'load' });
    const frame = page.frames().find((f) => f.url().includes('index.html'));
    assert.ok(frame, 'the iframe is there');
    await frame.evaluate(() => window.attentionDemo.ready.then(() => true));
    const readings = await frame.evaluate(() => window.attentionDemo.state().shown);
    assert.ok(readings, 'the demo answers state() inside the iframe');
    assert.deepEqual(await page.evaluate(() => window.cspViolations), [], 'no violation on the host page');
    assert.deepEqual(await frame.evaluate(() => window.cspViolations), [], 'no violation in the iframe');
    assert.deepEqual(errors, [], 'no console error');
  });
});
