// onnxruntime-web (wasm execution provider) on several threads, in a process of its own (its thread count is
// fixed when its wasm starts, so the one-thread peer of kernels.mjs cannot share a process with it): warm-up
// forwards as mha_bench's, then `reps` timed forwards of the same graph on the same inputs as mha_bench.
//
// Usage: node bench/kernels/ort_threads.mjs --threads N --tokens T --d-model D --heads H --reps R
//          --inputs FILE --output FILE
// FILE inputs as mha_bench's (x, w_qkv, w_o as float32); the last output (T, D) goes to --output as float32.
// Prints one JSON line: impl, threads, tokens, d_model, heads, reps, ms (each run), median_ms, cpu_per_wall
// (this process' CPU time over the timed runs' wall time: about the thread count when every thread works).
import fs from 'node:fs';
import * as ort from 'onnxruntime-web';
import { mhaModel } from './onnx_mha.mjs';

function parse(argv) {
  const a = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!['threads', 'tokens', 'd-model', 'heads', 'reps', 'inputs', 'output'].includes(key) ||
        i + 1 >= argv.length) {
      throw new Error(`bad argument '${argv[i]}'`);
    }
    a[key] = argv[i + 1];
  }
  for (const k of ['threads', 'tokens', 'd-model', 'heads', 'reps']) {
    a[k] = Number(a[k]);
    if (!Number.isInteger(a[k]) || a[k] < 1) throw new Error(`--${k} must be a whole number >= 1`);
  }
  if (!a.inputs || !a.output) throw new Error('--inputs and --output are needed');
  return a;
}

const median = (v) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)];

async function main() {
  const a = parse(process.argv.slice(2));
  const T = a.tokens, D = a['d-model'], H = a.heads;
  const buf = fs.readFileSync(a.inputs);
  const all = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  if (all.length !== T * D + 3 * D * D + D * D) throw new Error('--inputs does not hold x, w_qkv and w_o');
  const x = all.subarray(0, T * D), wQkv = all.subarray(T * D, T * D + 3 * D * D);
  const wO = all.subarray(T * D + 3 * D * D);

  ort.env.wasm.numThreads = a.threads;  // the worker pool, set before the first session
  ort.env.wasm.simd = true;
  ort.env.wasm.proxy = false;
  ort.env.logLevel = 'error';
  const session = await ort.InferenceSession.create(mhaModel(T, D, H, wQkv, wO), {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: a.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  const feeds = { x: new ort.Tensor('float32', new Float32Array(x), [T, D]) };
  const forward = async () => {
    const { y } = await session.run(feeds);
    const out = new Float32Array(y.data);
    y.dispose();
    return out;
  };
  // warm-up runs, as mha_bench's: at least two, for at least 250 ms (V8 optimises the wasm in the background
  // and a call that started before it is ready finishes in the baseline code)
  let out;
  const warm0 = performance.now();
  for (let i = 0; i < 2 || performance.now() - warm0 < 250; ++i) out = await forward();
  const ms = [];
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let i = 0; i < a.reps; ++i) {
    const t0 = performance.now();
    out = await forward();
    ms.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuPerWall = (cpu.user + cpu.system) / 1e3 / (performance.now() - wall0);
  await session.release();
  fs.writeFileSync(a.output, Buffer.from(out.buffer, out.byteOffset, out.byteLength));
  console.log(JSON.stringify({
    impl: 'ort', threads: a.threads, tokens: T, d_model: D, heads: H, reps: a.reps, ms,
    median_ms: median(ms), cpu_per_wall: cpuPerWall,
  }));
}

main().then(() => process.exit(0), (e) => {
  console.error(`error: ${e.message}`);
  process.exit(2);
});
