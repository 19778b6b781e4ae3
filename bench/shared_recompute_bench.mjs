// Browser benchmark (headless Chromium): the multi-head scene's large recomputes in the compute worker alone
// against the same recompute shared with the helper workers (one per core beyond the first), interleaved in
// one run at (tokens, d_model, heads) = (256, 512, 8), (512, 512, 8) and (1024, 768, 12): the worker's
// computing time (state().shown.compute_ms: the longest share's time plus the longest block of output
// rows) and the time from set() until the grids are shown, medians. "Alone" is a page told it has one
// core (navigator.hardwareConcurrency), so it starts no helper.
// Usage: ATTENTION_DEMO_URL=http://127.0.0.1:PORT/ node bench/shared_recompute_bench.mjs   (bench/run.sh)
// ATTN_BENCH_QUICK=1: one round (the plumbing; timings not meaningful).
import { launchBrowser, openDemo, setAndWait } from '../tests/browser/harness.mjs';

const quick = process.env.ATTN_BENCH_QUICK === '1';
const rounds = quick ? 1 : 5;
const shapes = [[256, 512, 8], [512, 512, 8], [1024, 768, 12]];
const words = ['refund', 'the', 'delivery', 'fee', 'not', 'cake', 'it', 'was', 'cold', 'late', 'please'];
const text = (n) => Array.from({ length: n }, (_, i) => words[i % words.length]).join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ONE_CORE = () => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 1 });

// A page at d_model x heads with its workers up (a first recompute at that width asks for them).
async function openPage(browser, alone, [, d, h]) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (alone) await context.addInitScript(ONE_CORE);
  const page = await context.newPage();
  await openDemo(page, 'scene=mha&heads_view=grid');
  await setAndWait(page, { d_model: d, heads: h, text: text(64) });
  await page.waitForFunction(() => window.attentionDemo.timing.helpers !== null &&
    window.attentionDemo.state().shown.computed_in === 'worker', null, { timeout: 120000 });
  return { page, context };
}

// One recompute of an n-token text (a new text each time: nothing cached): its times and worker count.
async function recompute(page, n, round) {
  const t = `${text(n - 1)} round${round}`;
  const ms = await page.evaluate((t) => new Promise((resolve) => {
    const demo = window.attentionDemo;
    const t0 = performance.now();
    let seen = false;
    demo.set({ text: t });
    (function poll() {
      const computing = demo.frameStats().computing;
      seen = seen || computing;
      if (seen && !computing) resolve(performance.now() - t0);
      else requestAnimationFrame(poll);
    })();
  }), t);
  const shown = (await page.evaluate(() => window.attentionDemo.state())).shown;
  return { ms, compute_ms: shown.compute_ms, workers: shown.workers };
}

const browser = await launchBrowser();
const results = [];
try {
  for (const shape of shapes) {
    const [n, d, h] = shape;
    const sides = { alone: await openPage(browser, true, shape), shared: await openPage(browser, false, shape) };
    const runs = { alone: [], shared: [] };
    for (let r = 0; r < rounds; ++r) {
      for (const side of r % 2 ? ['shared', 'alone'] : ['alone', 'shared']) {
        runs[side].push(await recompute(sides[side].page, n, r));
      }
    }
    for (const s of Object.values(sides)) await s.context.close();
    const sum = (side) => ({ workers: runs[side][0].workers, compute_ms: median(runs[side].map((x) => x.compute_ms)),
      shown_ms: median(runs[side].map((x) => x.ms)) });
    const row = { tokens: n, d_model: d, heads: h, alone: sum('alone'), shared: sum('shared') };
    row.compute_speedup = row.alone.compute_ms / row.shared.compute_ms;
    row.shown_speedup = row.alone.shown_ms / row.shared.shown_ms;
    results.push(row);
    console.log(`${n} tokens x d_model ${d} x ${h} heads: compute ${row.alone.compute_ms.toFixed(0)} ms with ` +
      `1 worker, ${row.shared.compute_ms.toFixed(0)} ms with ${row.shared.workers} (${row.compute_speedup.toFixed(2)}x); ` +
      `until shown ${row.alone.shown_ms.toFixed(0)} / ${row.shared.shown_ms.toFixed(0)} ms ` +
      `(${row.shown_speedup.toFixed(2)}x), medians of ${rounds}`);
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify({ shared_recompute: results }));
