// Browser benchmark: one recompute and one frame of the multi-head scene at 512 tokens, d_model 768,
// 12 heads, beside the default small input (ratios in one run; the machine is shared and noisy).
// Usage: ATTENTION_DEMO_URL=http://127.0.0.1:PORT/ node bench/frame_bench.mjs   (bench/run.sh does it)
import { launchBrowser, openDemo, waitFrames } from '../tests/browser/harness.mjs';

const words = ['refund', 'the', 'delivery', 'fee', 'not', 'cake', 'it', 'was', 'cold', 'late'];
const bigText = Array.from({ length: 512 }, (_, i) => words[i % words.length]).join(' ');

async function measure(page, settings) {
  await page.evaluate((s) => window.attentionDemo.set(s), settings);
  await waitFrames(page, 3, 600000);
  const state = await page.evaluate(() => window.attentionDemo.state());
  const frames = [];
  for (let i = 0; i < 20; ++i) {
    await waitFrames(page, 1, 600000);
    frames.push(await page.evaluate(() => window.attentionDemo.frameStats().cpu_ms));
  }
  frames.sort((a, b) => a - b);
  return {
    tokens: state.shown.tokens ? state.shown.tokens.length : null,
    recompute_ms: state.shown.compute_ms,
    frame_cpu_ms_median: frames[Math.floor(frames.length / 2)],
    error: state.error,
  };
}

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await openDemo(page, 'scene=mha');
  const small = await measure(page, { scene: 'mha', d_model: 16, heads: 4, text: 'Refund my eggless cake, it was cold.' });
  const big = await measure(page, { scene: 'mha', d_model: 768, heads: 12, text: bigText });
  console.log(JSON.stringify({
    small, big,
    recompute_ratio: big.recompute_ms / Math.max(small.recompute_ms, 1e-3),
    frame_ratio: big.frame_cpu_ms_median / Math.max(small.frame_cpu_ms_median, 1e-3),
  }, null, 2));
} finally {
  await browser.close();
}
