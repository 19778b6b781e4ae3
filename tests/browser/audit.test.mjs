// Audits of the built page in Debian's Chromium: axe-core's rules on the plain page after its first frame and
// on the example course page with its three embedded figures (0 violations in each document), and
// Lighthouse's accessibility, best-practices and SEO categories on the plain page (each 100) with every
// touch and wheel listener marked passive or not (its uses-passive-event-listeners audit). About 40 s.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { launchBrowser, openDemo, withCleanPage, baseUrl, CHROMIUM, FLAGS } from './harness.mjs';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

// axe-core run in one frame's document (its own iframes are audited on their own): the violations as
// readable lines, and how many rules passed (so a run that checked nothing cannot pass).
async function axeIn(frame) {
  await frame.addScriptTag({ content: AXE_SOURCE });
  return frame.evaluate(async () => {
    const r = await window.axe.run(document, { iframes: false, resultTypes: ['violations'] });
    return {
      passes: r.passes.length,
      violations: r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; nodes: ` +
        v.nodes.map((n) => `${n.target.join(' ')} [${n.failureSummary.replace(/\s+/g, ' ')}]`).join(', ')),
    };
  });
}

function assertClean(result, where) {
  assert.ok(result.passes >= 10, `axe checked ${where} (${result.passes} rules passed)`);
  assert.deepEqual(result.violations, [], `axe-core violations on ${where}:\n${result.violations.join('\n')}`);
}

test('axe-core: the plain page after its first frame has no violation', async () => {
  await withCleanPage(browser, {}, async (page) => {
    await openDemo(page, 'scene=mha&heads=2');  // a scene with a text field (an <input> the app lays out)
    assert.equal(await page.locator('#app input.field').count() > 0, true, 'the text field is inside <main>');
    assertClean(await axeIn(page.mainFrame()), 'index.html?scene=mha');
  });
});

test('axe-core: the example course page and each embedded figure have no violation', async () => {
  await withCleanPage(browser, { viewport: { width: 1000, height: 800 } }, async (page) => {
    await page.goto(baseUrl() + 'course-example.html', { waitUntil: 'load' });
    const count = await page.locator('.demo').count();
    assert.equal(count, 3, 'the course page embeds three figures');
    for (let i = 0; i < count; i++) {  // an embed draws its first frame on screen
      await page.locator('.demo').nth(i).scrollIntoViewIfNeeded();
      await page.locator('.demo').nth(i).evaluate((e) => e.demo.ready.then(() => true));
    }
    assertClean(await axeIn(page.mainFrame()), 'course-example.html');
    const frames = page.frames().filter((f) => f !== page.mainFrame());
    assert.equal(frames.length, 3, 'three iframes');
    for (const f of frames) assertClean(await axeIn(f), f.url());
  });
});

// Lighthouse drives a Chromium of its own (chrome-launcher: a fresh profile, its debugging port) with the
// harness's flags; its default mobile emulation, no throttling (its performance score is not audited here).
test('Lighthouse: accessibility, best practices and SEO are 100 on the plain page; no scroll-blocking listener', async (t) => {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', ...FLAGS] });
  let lhr;
  try {
    ({ lhr } = await lighthouse(baseUrl() + 'index.html', {
      port: chrome.port, logLevel: 'error', throttlingMethod: 'provided',
      onlyCategories: ['accessibility', 'best-practices', 'seo'], onlyAudits: ['uses-passive-event-listeners'],
    }));
  } finally {
    await chrome.kill();
  }
  assert.equal(lhr.runtimeError, undefined, `Lighthouse ran: ${JSON.stringify(lhr.runtimeError)}`);
  const failing = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 1)
    .map((a) => `${a.id} (${a.score}): ${a.title}; ${JSON.stringify(a.details?.items?.slice(0, 3) ?? '')}`);
  const scores = Object.fromEntries(Object.entries(lhr.categories).map(([id, c]) => [id, c.score * 100]));
  t.diagnostic(`Lighthouse ${lhr.lighthouseVersion}: ${JSON.stringify(scores)}`);
  assert.deepEqual(scores, { accessibility: 100, 'best-practices': 100, seo: 100 }, `failing audits:\n${failing.join('\n')}`);
  assert.equal(lhr.audits['uses-passive-event-listeners'].score, 1, `failing audits:\n${failing.join('\n')}`);
});
