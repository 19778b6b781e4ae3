// Browser engines side by side: each engine's start-up (navigation -> wasm compiled -> runtime ready -> first
// frame, from attentionDemo.timing: the first load after launch, then the median of all loads, the later
// ones with the browser's caches warm) and the time to train the Train scene to 99%
// held-out accuracy (sinusoidal positions, seed 1), through the cross-engine driver (tests/browser/engines),
// with the training steps per second of the page's compute worker against the same worker and .wasm in
// node (bench/worker_node.mjs, one node run before each engine's, interleaved on this shared machine).
// Usage (bench/run.sh does it, on a virtual display, dist/ served):
//   ATTENTION_DEMO_URL=http://127.0.0.1:PORT/ tests/browser/engines/with_display.sh node bench/engines_bench.mjs [ENGINE...]
// ATTN_BENCH_QUICK=1: one load and one training run per engine (the plumbing; timings not meaningful).
import { launch, ENGINES } from '../tests/browser/engines/driver.mjs';
import { openDemo, trainUntilStopped, TRAIN_QUERY } from '../tests/browser/engines/demo_runs.mjs';
import { startWorker, TrainDriver } from './worker_node.mjs';

const quick = process.env.ATTN_BENCH_QUICK === '1';
const loads = quick ? 1 : 5;
const trainings = quick ? 1 : 2;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// The worker in node: training steps per second (the session's own training clock) to 99%.
const dist = process.env.ATTENTION_DEMO_DIST || new URL('../dist', import.meta.url).pathname;
let driver;
const deliver = await startWorker(dist, (bytes) => driver.receive(bytes));
driver = new TrainDriver((bytes) => deliver({ data: bytes }));
const nodeRates = [];
async function nodeRun() {
  driver.start({ positions: 'sinusoidal', d_model: 32, heads: 4, layers: 1, seed: 1 });
  const u = await driver.run(2000);
  nodeRates.push(u.steps / u.seconds);
}

const engines = process.argv.length > 2 ? process.argv.slice(2) : ENGINES;
const rows = [];
let failed = 0;
for (const engine of engines) {
  await nodeRun();
  let browser;
  try {
    browser = await launch(engine);
    const page = await browser.open();
    const timings = [];
    for (let i = 0; i < loads; i++) timings.push(await openDemo(page, 'scene=clock'));
    const runs = [];
    for (let i = 0; i < trainings; i++) {
      await openDemo(page, TRAIN_QUERY);
      const { state, seconds } = await trainUntilStopped(page, 600000);
      if (!state.shown.target_reached) throw new Error(`training stopped short of 99% (${state.shown.steps} steps)`);
      runs.push({ seconds, steps: state.shown.steps, accuracy: state.shown.metrics.test_accuracy,
                  reported: state.shown.target_seconds, worker: state.shown.in_worker,
                  rate: state.shown.steps / state.shown.target_seconds });
    }
    const at = (name) => median(timings.map((t) => t[name]));
    rows.push({ engine, version: browser.version, cold: timings[0].first_frame_ms, compiled: at('wasm_compiled_ms'),
                runtime: at('runtime_ready_ms'), first: at('first_frame_ms'),
                train: median(runs.map((r) => r.seconds)), reported: median(runs.map((r) => r.reported)),
                steps: runs[0].steps, accuracy: Math.min(...runs.map((r) => r.accuracy)),
                worker: runs.every((r) => r.worker), rate: median(runs.map((r) => r.rate)) });
  } catch (e) {
    failed++;
    console.log(`${engine}: failed: ${e && e.message || e}`);
  } finally {
    if (browser) await browser.close().catch(() => {});
  }
}

console.log(`start-up: ?scene=clock, ms since navigation: the first frame of the first load, then the median ` +
            `of ${loads} load(s); training to 99%: ${TRAIN_QUERY}, median of ${trainings} run(s), seconds of ` +
            'wall time (node) and as the page reports');
const nodeRate = median(nodeRates);
console.log(`steps/s: training steps per second of training time as the session measures it (evaluations ` +
            `included); the same worker in node: ${nodeRate.toFixed(0)} (median of ${nodeRates.length} runs)`);
const header = ['engine', 'version', 'first load', 'compiled', 'runtime', 'first frame', 'train s', 'page s',
  'steps', 'accuracy', 'worker', 'steps/s', 'vs node', 'vs chromium'];
const base = rows.find((r) => r.engine === 'chromium');
const table = rows.map((r) => [r.engine, r.version, r.cold.toFixed(0), r.compiled.toFixed(0), r.runtime.toFixed(0),
  r.first.toFixed(0), r.train.toFixed(2), Number(r.reported).toFixed(2), String(r.steps), r.accuracy.toFixed(4),
  r.worker ? 'yes' : 'no', r.rate.toFixed(0), `x${(r.rate / nodeRate).toFixed(2)}`,
  base ? `start-up x${(r.first / base.first).toFixed(2)}, training x${(r.train / base.train).toFixed(2)}` : '']);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
for (const row of [header, ...table]) console.log(row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
process.exit(failed ? 1 : 0);  // the node worker's message port would keep node alive
