// Browser benchmark: frame CPU time (median while the mouse moves over the page) of the multi-head scene
// at 64 tokens x 16 heads and at 512 tokens x 12 heads, beside the idle clock scene and the default small
// input, plus the one recompute of each (ratios in one run: the machine is shared and noisy).
// Usage: ATTENTION_DEMO_URL=http://127.0.0.1:PORT/ node bench/frame_bench.mjs   (bench/run.sh does it)
import { launchBrowser, openDemo, waitFrames } from '../tests/browser/harness.mjs';

const words = ['refund', 'the', 'delivery', 'fee', 'not', 'cake', 'it', 'was', 'cold', 'late'];
const text = (n) => Array.from({ length: n }, (_, i) => words[i % words.length]).join(' ');
const kSamples = 30;

// One case: apply the settings, let the recompute finish, then sample frames while the mouse sweeps the
// page (hovering cells, labels and tooltips as a learner does).
async function measure(page, settings) {
  await page.mouse.move(5, 5);
  await page.evaluate((s) => window.attentionDemo.set(s), settings);
  await waitFrames(page, 3, 600000);
  const state = await page.evaluate(() => window.attentionDemo.state());
  const frames = [];
  for (let i = 0; i < kSamples; ++i) {
    await page.mouse.move(200 + ((i * 37) % 1000), 250 + ((i * 53) % 600));
    await waitFrames(page, 1, 600000);
    frames.push(await page.evaluate(() => window.attentionDemo.frameStats().cpu_ms));
  }
  frames.sort((a, b) => a - b);
  return {
    tokens: state.shown.tokens ? state.shown.tokens.length : null,
    recompute_ms: state.shown.compute_ms ?? null,
    frame_cpu_ms_median: frames[Math.floor(frames.length / 2)],
    frame_cpu_ms_max: frames[frames.length - 1],
    error: state.error,
  };
}

const cases = {
  clock_idle: { scene: 'clock' },
  mha_default: { scene: 'mha', d_model: 16, heads: 4, text: 'Refund my eggless cake, it was cold.' },
  mha_64_tokens_16_heads: { scene: 'mha', d_model: 128, heads: 16, text: text(64) },
  mha_512_tokens_12_heads: { scene: 'mha', d_model: 768, heads: 12, text: text(512) },
};

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await openDemo(page, 'scene=clock');
  const results = {};
  for (const [name, settings] of Object.entries(cases)) results[name] = await measure(page, settings);
  const idle = Math.max(results.clock_idle.frame_cpu_ms_median, 1e-3);
  for (const r of Object.values(results)) r.frame_vs_idle_clock = r.frame_cpu_ms_median / idle;
  console.log(JSON.stringify(results, null, 2));
  console.log('\nframe CPU time (median while the mouse moves), against the idle clock scene:');
  for (const [name, r] of Object.entries(results)) {
    console.log(`  ${name.padEnd(26)} ${r.frame_cpu_ms_median.toFixed(2).padStart(7)} ms  ` +
                `${r.frame_vs_idle_clock.toFixed(1).padStart(6)}x` + (r.error ? `  error: ${r.error}` : ''));
  }
} finally {
  await browser.close();
}
