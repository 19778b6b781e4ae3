// Browser benchmark (headless Chromium): time to the first frame, frames drawn while idle, frame times of
// the multi-head scene up to 1,024 tokens x 16 heads beside the idle clock scene, and the page's recompute
// at 512 tokens x 768 x 12 heads beside the native build's (ratios in one run: the machine is noisy).
// Usage: ATTENTION_DEMO_URL=http://127.0.0.1:PORT/ node bench/frame_bench.mjs   (bench/run.sh does it)
//   ATTN_NATIVE_BUILD_DIR (default build/native): where bench/attention_bench is, for the native recompute.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseUrl, launchBrowser, openDemo, waitFrames } from '../tests/browser/harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.env.ATTN_BENCH_QUICK === '1';
const words = ['refund', 'the', 'delivery', 'fee', 'not', 'cake', 'it', 'was', 'cold', 'late'];
const text = (n) => Array.from({ length: n }, (_, i) => words[i % words.length]).join(' ');
const kSamples = quick ? 10 : 30;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Navigation -> first drawn frame (attentionDemo.timing, performance.now() at the app's first frame), in a
// fresh page each time.
async function startup(browser, loads) {
  const runs = [];
  for (let i = 0; i < loads; ++i) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(baseUrl() + 'index.html?scene=clock', { waitUntil: 'commit' });
    await page.waitForFunction(() => window.attentionDemo && window.attentionDemo.timing.first_frame_ms !== null,
      null, { timeout: 60000 });
    runs.push(await page.evaluate(() => window.attentionDemo.timing));
    await page.close();
  }
  return { first_frame_ms: median(runs.map((r) => r.first_frame_ms)),
           wasm_compiled_ms: median(runs.map((r) => r.wasm_compiled_ms)),
           runtime_ready_ms: median(runs.map((r) => r.runtime_ready_ms)), loads };
}

// Frames drawn in `ms` with no input, after the page has settled.
async function idleFrames(page, ms) {
  await page.mouse.move(5, 5);
  await page.waitForTimeout(1000);
  const a = await page.evaluate(() => window.attentionDemo.frameStats().frame);
  await page.waitForTimeout(ms);
  const b = await page.evaluate(() => window.attentionDemo.frameStats().frame);
  return (b - a) / (ms / 1000);
}

// One case: apply the settings, let the recompute finish, then sample frames while the mouse sweeps the
// page (hovering cells, labels and tooltips as a learner does).
async function measure(page, settings) {
  await page.mouse.move(5, 5);
  await page.evaluate((s) => window.attentionDemo.set(s), settings);
  await waitFrames(page, 3, 600000);
  const state = await page.evaluate(() => window.attentionDemo.state());
  const cpu = [], whole = [], interval = [];
  for (let i = 0; i < kSamples; ++i) {
    await page.mouse.move(200 + ((i * 37) % 1000), 250 + ((i * 53) % 600));
    await waitFrames(page, 1, 600000);
    const fs = await page.evaluate(() => window.attentionDemo.frameStats());
    cpu.push(fs.cpu_ms);
    whole.push(fs.frame_ms);
    if (fs.interval_ms > 0) interval.push(fs.interval_ms);
  }
  return {
    tokens: state.shown.tokens ? state.shown.tokens.length : null,
    recompute_ms: state.shown.compute_ms ?? null,
    frame_cpu_ms_median: median(cpu),
    frame_ms_median: median(whole),
    frame_interval_ms_median: interval.length ? median(interval) : null,
    error: state.error,
  };
}

// The native build's recompute of the same scene (Google Benchmark's BM_Recompute/512/768/12), or null.
function nativeRecomputeMs() {
  const exe = path.join(process.env.ATTN_NATIVE_BUILD_DIR || path.join(root, 'build/native'), 'bench/attention_bench');
  if (!existsSync(exe)) return null;
  const r = spawnSync(exe, ['--benchmark_filter=^BM_Recompute/512/768/12$', '--benchmark_format=json',
    '--benchmark_repetitions=3', '--benchmark_report_aggregates_only=true'], { encoding: 'utf8' });
  if (r.status !== 0) return null;
  const m = JSON.parse(r.stdout).benchmarks.find((b) => b.aggregate_name === 'median');
  return m ? m.real_time : null;  // the benchmark reports milliseconds
}

const cases = {
  clock_idle: { scene: 'clock' },
  mha_default: { scene: 'mha', d_model: 16, heads: 4, text: 'Refund my eggless cake, it was cold.' },
  mha_64_tokens_16_heads: { scene: 'mha', d_model: 128, heads: 16, text: text(64) },
  mha_512_tokens_12_heads: { scene: 'mha', d_model: 768, heads: 12, text: text(512) },
  mha_1024_tokens_16_heads: { scene: 'mha', d_model: 768, heads: 16, text: text(1024) },
};

const browser = await launchBrowser();
try {
  const start = await startup(browser, quick ? 1 : 3);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await openDemo(page, 'scene=clock');
  const idle_fps = await idleFrames(page, quick ? 1000 : 3000);
  const results = {};
  for (const [name, settings] of Object.entries(cases)) results[name] = await measure(page, settings);
  const idle = Math.max(results.clock_idle.frame_cpu_ms_median, 1e-3);
  for (const r of Object.values(results)) r.frame_vs_idle_clock = r.frame_cpu_ms_median / idle;
  const native = nativeRecomputeMs();
  const page512 = results.mha_512_tokens_12_heads.recompute_ms;
  const summary = {
    first_frame_ms: start.first_frame_ms, wasm_compiled_ms: start.wasm_compiled_ms,
    runtime_ready_ms: start.runtime_ready_ms, idle_frames_per_second: idle_fps,
    // the whole frame as the learner gets it (interval between frame starts) and its CPU part alone
    big_input_frame_ratio: results.mha_1024_tokens_16_heads.frame_interval_ms_median /
                           results.clock_idle.frame_interval_ms_median,
    big_input_cpu_ratio: results.mha_1024_tokens_16_heads.frame_vs_idle_clock,
    recompute_512x768x12_page_ms: page512, recompute_512x768x12_native_ms: native,
    recompute_page_vs_native: native ? page512 / native : null,
  };
  console.log(JSON.stringify({ summary, cases: results }, null, 2));
  const mark = (ok) => (ok ? 'PASS' : 'FAIL');
  console.log(`\nstart-up: first frame ${start.first_frame_ms.toFixed(0)} ms after navigation (median of ${start.loads}; ` +
              `wasm compiled at ${start.wasm_compiled_ms.toFixed(0)} ms, module ready at ` +
              `${start.runtime_ready_ms.toFixed(0)} ms)  ${mark(start.first_frame_ms < 1000)} (< 1000 ms)`);
  console.log(`idle: ${idle_fps.toFixed(2)} frames per second with no input  ${mark(idle_fps === 0)} (0)`);
  console.log('\nframe times (median while the mouse moves), against the idle clock scene:');
  console.log(`  ${'case'.padEnd(26)} ${'cpu ms'.padStart(8)} ${'frame ms'.padStart(9)} ${'interval'.padStart(9)} ${'vs idle'.padStart(8)}`);
  for (const [name, r] of Object.entries(results)) {
    console.log(`  ${name.padEnd(26)} ${r.frame_cpu_ms_median.toFixed(2).padStart(8)} ${r.frame_ms_median.toFixed(2).padStart(9)} ` +
                `${(r.frame_interval_ms_median ?? NaN).toFixed(1).padStart(9)} ${r.frame_vs_idle_clock.toFixed(2).padStart(7)}x` +
                (r.error ? `  error: ${r.error}` : ''));
  }
  console.log(`  1,024 tokens x 16 heads: the whole frame (interval) ${summary.big_input_frame_ratio.toFixed(2)}x ` +
              `the idle clock scene's  ${mark(summary.big_input_frame_ratio <= 1.5)} (<= 1.5x); its CPU part ` +
              `${summary.big_input_cpu_ratio.toFixed(2)}x (cpu ms has 0.1 ms steps)`);
  console.log(`\nrecompute, 512 tokens x d_model 768 x 12 heads: page ${page512.toFixed(0)} ms, native ` +
              (native ? `${native.toFixed(0)} ms, ratio ${(page512 / native).toFixed(2)}x  ${mark(page512 / native <= 1.5)} (<= 1.5x)`
                      : 'not built (build/native/bench/attention_bench)'));
} finally {
  await browser.close();
}
