// A large model file read in the page against the native CLI, side by side: `attention_cli train --out` writes
// one (d_model 256, 4 heads, 4 layers, d_ff 1024: about 66 MB of JSON), then headless Chromium loads its text
// with attentionDemo.loadModel() (the time until its Promise settles, the longest main-thread task meanwhile,
// and the page's wasm heap before and after) and the CLI
// reads it with `router --model` (wall time); medians, and the page's time against the CLI's.
// Usage (bench/run.sh does it, dist/ served): ATTENTION_DEMO_URL=... node bench/model_load_bench.mjs
// ATTN_BENCH_QUICK=1: a small model and one run each (the plumbing).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, openDemo } from '../tests/browser/harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.env.ATTN_BENCH_QUICK === '1';
const runs = quick ? 1 : 3;
const cli = path.join(root, process.env.ATTN_NATIVE_BUILD_DIR || 'build/native', 'attention_cli');
const sizes = quick ? ['--d-model', '32', '--heads', '4', '--layers', '1'] :
  ['--d-model', '256', '--heads', '4', '--layers', '4', '--d-ff', '1024'];
const outDir = path.join(root, process.env.ATTN_NATIVE_BUILD_DIR || 'build/native', 'bench');
const file = path.join(outDir, quick ? 'model_small.json' : 'model_large.json');
const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

function run(args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`attention_cli ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

if (!existsSync(cli)) throw new Error(`${cli} is missing: build it with cmake --build --preset native`);
mkdirSync(outDir, { recursive: true });
if (!existsSync(file)) run(['train', ...sizes, '--steps', '1', '--no-timing', '--out', file]);
const text = readFileSync(file, 'utf8');
const mb = (statSync(file).size / 1e6).toFixed(1);

const cliMs = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  run(['router', '--model', file, '--text', 'Refund the cake, not the delivery fee.']);
  cliMs.push(performance.now() - t0);
}

const browser = await launchBrowser();
const page = await browser.newPage();
const pageRuns = [];
try {
  await openDemo(page, 'scene=train');
  for (let i = 0; i < runs; i++) {
    pageRuns.push(await page.evaluate(async (s) => {
      const heap = window.Module.HEAP8.length;
      const long = [];
      const watch = new PerformanceObserver((l) => { for (const e of l.getEntries()) long.push(e.duration); });
      watch.observe({ type: 'longtask' });
      const t0 = performance.now();
      const r = await window.attentionDemo.loadModel(s, 'model.json');
      const ms = performance.now() - t0;
      await new Promise((resolve) => setTimeout(resolve, 100));  // the last task's entry arrives
      watch.disconnect();
      if (!r.ok) throw new Error(r.error);
      return { ms, longest: Math.max(0, ...long), heapBefore: heap, heapAfter: window.Module.HEAP8.length };
    }, text));
  }
} finally {
  await browser.close();
}
const pageMs = median(pageRuns.map((r) => r.ms));
console.log(`model file: ${mb} MB (${sizes.join(' ')})`);
console.log(`attention_cli router --model (wall, median of ${runs}): ${median(cliMs).toFixed(0)} ms`);
console.log(`page loadModel() in headless Chromium (median of ${runs}): ${pageMs.toFixed(0)} ms ` +
            `(${(pageMs / median(cliMs)).toFixed(1)}x the CLI)`);
console.log(`longest main-thread task of each load: ${pageRuns.map((r) => r.longest.toFixed(0)).join(', ')} ms ` +
            '(the text given to loadModel() is encoded on the page\'s thread; the file is read in the compute worker when it runs)');
console.log(`wasm heap: ${(pageRuns[0].heapBefore / 2 ** 20).toFixed(0)} MiB before the first load, ` +
            pageRuns.map((r) => (r.heapAfter / 2 ** 20).toFixed(0)).join(', ') + ' MiB after each');
