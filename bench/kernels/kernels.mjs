// Kernel benchmark: this project's multi-head attention forward (mha_bench, wasm under node and native)
// against onnxruntime-web (wasm EP) and tfjs-backend-wasm on the same seeded inputs, single thread, run
// interleaved over several rounds (A B C D A B C D ...; medians). Beside them, on as many cores as the page
// would use (up to 4): this project's wasm split over that many workers as the page's helper workers split
// it (mha_bench --share, one process per worker, all at once) against onnxruntime-web with that many
// threads (ort_threads.mjs). Prints each one's median ms, GFLOP/s, speed against this project's wasm, its
// largest difference to a float64 reference, the largest difference between implementations, PASS/FAIL
// per target, and the softmax wasm/native ratio.
//
// Usage: node bench/kernels/kernels.mjs [--wasm build/wasm-node/bench/mha_bench.js]
//          [--native build/native/bench/mha_bench] [--rounds N] [--quick] [--shapes 256x512x8,...]
//          [--only mha|softmax] [--json FILE]
// ATTN_BENCH_QUICK=1 (or --quick): 2 rounds of 1 rep, to check the plumbing. Exit status 1 when an
// implementation fails or an output is off the float64 reference by more than 1e-3; a missed performance
// target prints FAIL but is not an error.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { initTfjs, ortInfo, ortRunner, tfjsInfo, tfjsRunner, versions } from './peers.mjs';
import {
  inputsFileBytes, makeInputs, maxDiff, maxDiffToReference, referenceRows, sampleRows,
} from './reference.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOLERANCE = 1e-3; // largest accepted |output - float64 reference|
const TARGETS = { wasmGflops: 25, vsOrt: 1, vsTfjs: 3, softmaxRatio: 3 };
// Workers of the shared forward and threads of its onnxruntime-web peer: the page's count (one per core,
// at most 4: web/shell.js startHelpers); fewer than 2 leaves both out.
const WORKERS = Math.min(os.cpus().length, 4);
const HERE = path.dirname(fileURLToPath(import.meta.url));

// --- command line ---
function parseArgs(argv) {
  const a = {
    wasm: null,
    native: null,
    rounds: null,
    quick: process.env.ATTN_BENCH_QUICK === '1',
    shapes: '256x512x8,512x512x8,1024x768x12',
    json: null,
    only: null,
  };
  for (let i = 0; i < argv.length; ++i) {
    const opt = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${opt} needs a value`);
      return argv[++i];
    };
    if (opt === '--wasm') a.wasm = value();
    else if (opt === '--native') a.native = value();
    else if (opt === '--rounds') a.rounds = Number(value());
    else if (opt === '--quick') a.quick = true;
    else if (opt === '--shapes') a.shapes = value();
    else if (opt === '--json') a.json = value();
    else if (opt === '--only') a.only = value();
    else throw new Error(`unknown option '${opt}' (see the usage at the top of kernels.mjs)`);
  }
  const firstExisting = (list) => list.find((p) => fs.existsSync(p)) ?? list[0];
  const wasmPaths = ['build/wasm-node/bench/mha_bench.js', 'build/wasm-node/mha_bench.js'];
  a.wasm ??= firstExisting(wasmPaths.map((p) => path.join(ROOT, p)));
  a.native ??= path.join(ROOT, 'build/native/bench/mha_bench');
  a.rounds ??= a.quick ? 2 : 7;
  if (![null, 'mha', 'softmax'].includes(a.only)) throw new Error('--only takes mha or softmax');
  if (!Number.isInteger(a.rounds) || a.rounds < 1) throw new Error('--rounds must be a whole number >= 1');
  a.shapes = a.shapes.split(',').map((s) => {
    const m = /^(\d+)x(\d+)x(\d+)$/.exec(s.trim());
    if (!m) throw new Error(`--shapes: '${s}' is not TxDxH`);
    const [T, D, H] = m.slice(1).map(Number);
    if (D % H) throw new Error(`--shapes: ${H} heads do not divide d_model ${D}`);
    return { T, D, H };
  });
  return a;
}

const flopsOf = ({ T, D }) => 8 * T * D * D + 4 * T * T * D;
// Reps per round: about 4 GFLOP of work per implementation and round (at least 2), 1 in quick mode.
const repsFor = (shape, quick) => (quick ? 1 : Math.max(2, Math.round(4e9 / flopsOf(shape))));

function median(values) {
  const v = [...values].sort((x, y) => x - y);
  const n = v.length;
  return n % 2 ? v[(n - 1) / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// --- this project's mha_bench (a child process: warm-up runs, then `reps` timed runs inside it) ---
function runMhaBench(kind, program, args) {
  const [cmd, argv] =
    kind === 'wasm' ? [process.execPath, ['--no-experimental-fetch', program, ...args]] : [program, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) {
    const why = (r.stderr || r.error || '').toString().trim();
    throw new Error(`${kind} mha_bench exited with ${r.status ?? r.signal}: ${why}`);
  }
  const lines = r.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

// The last JSON line of a child process run alongside others (async), or an error naming it.
function runChild(what, cmd, argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) return reject(new Error(`${what} exited with ${code ?? signal}: ${err.trim()}`));
      const lines = out.trim().split('\n');
      try {
        resolve(JSON.parse(lines[lines.length - 1]));
      } catch (e) {
        reject(new Error(`${what} printed no JSON line: ${out.trim()}`));
      }
    });
  });
}

const readFloats = (file) => {
  const buf = fs.readFileSync(file);
  return new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
};

// This project's wasm split over `workers` processes at once, each one worker's share (mha_bench --share
// i/N: its span of heads, then its block of output rows). A forward's time is what the page waits for
// with every worker on its own core: the slowest span plus the slowest block of rows (the joins between
// the rounds, messages in the page, are left out). The processes are not held in step run by run, so a
// run of one may overlap two of another near the ends; the medians are over many runs.
function sharedRunner(program, shape, inputsFile, tmp) {
  return {
    async round(reps) {
      const outs = [], children = [];
      for (let i = 0; i < WORKERS; ++i) {
        outs.push(path.join(tmp, `out_shared_${i}.bin`));
        children.push(runChild(`wasm mha_bench --share ${i}/${WORKERS}`, process.execPath, [
          '--no-experimental-fetch', program, '--tokens', shape.T, '--d-model', shape.D, '--heads', shape.H,
          '--reps', reps, '--inputs', inputsFile, '--output', outs[i], '--share', `${i}/${WORKERS}`,
        ].map(String)));
      }
      const lines = await Promise.all(children);
      const ms = [];
      for (let r = 0; r < reps; ++r) {
        ms.push(Math.max(...lines.map((j) => j.span_ms[r])) + Math.max(...lines.map((j) => j.rows_ms[r])));
      }
      const blocks = outs.map(readFloats);
      const output = new Float32Array(shape.T * shape.D);
      let at = 0;
      for (const b of blocks) {
        output.set(b, at);
        at += b.length;
      }
      if (at !== output.length) throw new Error(`the shares gave ${at} of ${output.length} outputs`);
      return { ms, output };
    },
    async dispose() {},
  };
}

// onnxruntime-web on `WORKERS` threads, in its own process each round (ort_threads.mjs).
function ortThreadsRunner(shape, inputsFile, outFile) {
  return {
    async round(reps) {
      const j = await runChild('ort_threads.mjs', process.execPath, [
        path.join(HERE, 'ort_threads.mjs'), '--threads', WORKERS, '--tokens', shape.T, '--d-model', shape.D,
        '--heads', shape.H, '--reps', reps, '--inputs', inputsFile, '--output', outFile,
      ].map(String));
      if (j.ms.length !== reps) throw new Error(`ort_threads.mjs printed ${j.ms.length} runs of ${reps}`);
      return { ms: j.ms, output: readFloats(outFile), cpuPerWall: j.cpu_per_wall };
    },
    async dispose() {},
  };
}

function projectRunner(kind, program, shape, inputsFile, outFile) {
  return {
    async round(reps) {
      const j = runMhaBench(kind, program, [
        '--tokens', shape.T, '--d-model', shape.D, '--heads', shape.H, '--reps', reps,
        '--inputs', inputsFile, '--output', outFile,
      ].map(String));
      if (j.tokens !== shape.T || j.d_model !== shape.D || j.heads !== shape.H || j.ms.length !== reps) {
        throw new Error(`${kind} mha_bench printed an unexpected line: ${JSON.stringify(j)}`);
      }
      const buf = fs.readFileSync(outFile);
      return { ms: j.ms, output: new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4) };
    },
    async dispose() {},
  };
}

// --- a peer in this process: warm-up forwards at creation (as mha_bench's: at least two, for at least 250 ms),
// then `reps` timed forwards per round ---
async function peerRunner(make) {
  const runner = await make();
  const warm0 = performance.now();
  for (let i = 0; i < 2 || performance.now() - warm0 < 250; ++i) await runner.run();
  return {
    async round(reps) {
      const ms = [];
      let output = null;
      const cpu0 = process.cpuUsage();
      const wall0 = performance.now();
      for (let i = 0; i < reps; ++i) {
        const t0 = performance.now();
        output = await runner.run();
        ms.push(performance.now() - t0);
      }
      const cpu = process.cpuUsage(cpu0);
      // CPU time of this process over wall time: about 1 on one thread, up to the core count on more.
      return { ms, output, cpuPerWall: (cpu.user + cpu.system) / 1e3 / (performance.now() - wall0) };
    },
    dispose: () => runner.dispose(),
  };
}

const fmt = (v, digits) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const exp = (v) => (Number.isFinite(v) ? v.toExponential(1) : String(v));

async function benchShape(args, shape, tmp, problems) {
  const { T, D, H } = shape;
  const flops = flopsOf(shape);
  const reps = repsFor(shape, args.quick);
  const inputs = makeInputs(T, D, 1000 * T + D + H);
  const inputsFile = path.join(tmp, `inputs_${T}_${D}_${H}.bin`);
  fs.writeFileSync(inputsFile, inputsFileBytes(inputs));

  const impls = [
    { key: 'wasm', label: 'this project, wasm (node)', program: args.wasm },
    { key: 'native', label: 'this project, native', program: args.native },
    { key: 'ort', label: `onnxruntime-web ${versions.ort}, wasm EP` },
    { key: 'tfjs', label: `tfjs-backend-wasm ${versions.tfjs}` },
    { key: 'wasm_shared', label: `this project, wasm, ${WORKERS} workers`, shared: true },
    { key: 'ort_threads', label: `onnxruntime-web, ${WORKERS} threads`, shared: true },
  ];
  for (const im of impls) {
    im.ms = [];
    im.cpuPerWall = [];
    try {
      if (im.shared && WORKERS < 2) throw new Error('one core: nothing to share');
      if (im.key === 'wasm_shared') {
        if (!fs.existsSync(args.wasm)) throw new Error(`missing ${args.wasm}`);
        im.runner = sharedRunner(args.wasm, shape, inputsFile, tmp);
      } else if (im.key === 'ort_threads') {
        im.runner = ortThreadsRunner(shape, inputsFile, path.join(tmp, 'out_ort_threads.bin'));
      } else if (im.program !== undefined) {
        if (!fs.existsSync(im.program)) throw new Error(`missing ${im.program}`);
        im.runner = projectRunner(im.key, im.program, shape, inputsFile, path.join(tmp, `out_${im.key}.bin`));
      } else {
        im.runner = await peerRunner(() => (im.key === 'ort' ? ortRunner : tfjsRunner)(inputs, T, D, H));
      }
    } catch (e) {
      im.error = e.message;
    }
  }

  // Interleaved rounds: every implementation once per round, in the same order.
  for (let round = 0; round < args.rounds; ++round) {
    for (const im of impls) {
      if (im.error) continue;
      try {
        const r = await im.runner.round(reps);
        im.ms.push(...r.ms);
        if (r.cpuPerWall !== undefined) im.cpuPerWall.push(r.cpuPerWall);
        im.output = r.output;
      } catch (e) {
        im.error = e.message;
      }
    }
  }
  for (const im of impls) if (im.runner) await im.runner.dispose();

  // The float64 reference on 16 sampled rows, then every output against it and against each other.
  const rows = sampleRows(T, 16);
  const ref = referenceRows(inputs, T, D, H, rows);
  for (const im of impls) {
    if (im.error) {
      problems.push(`${T}x${D}x${H} ${im.label}: ${im.error}`);
      continue;
    }
    im.median = median(im.ms);
    im.gflops = flops / (im.median * 1e-3) / 1e9;
    im.refDiff = maxDiffToReference(im.output, ref, rows, D);
    if (!(im.refDiff <= TOLERANCE)) {
      problems.push(`${T}x${D}x${H} ${im.label}: output off the float64 reference by ${exp(im.refDiff)}`);
    }
  }
  const ok = impls.filter((im) => !im.error);
  let worst = { diff: 0, pair: '-' };
  const pairs = [];
  for (let i = 0; i < ok.length; ++i) {
    for (let j = i + 1; j < ok.length; ++j) {
      const diff = maxDiff(ok[i].output, ok[j].output);
      pairs.push({ a: ok[i].key, b: ok[j].key, diff });
      if (!(diff <= worst.diff)) worst = { diff, pair: `${ok[i].key} vs ${ok[j].key}` };
    }
  }

  const byKey = Object.fromEntries(impls.map((im) => [im.key, im]));
  // The workers' joined output must be the one-thread forward's to the bit (the page relies on it).
  const [one, shared] = [byKey.wasm, byKey.wasm_shared];
  if (!one.error && !shared.error && maxDiff(one.output, shared.output) !== 0) {
    problems.push(`${T}x${D}x${H} ${shared.label}: output differs from the one-thread wasm forward`);
  }
  const wasm = byKey.wasm;
  console.log(`\n(T, d_model, heads) = (${T}, ${D}, ${H}): ${(flops / 1e9).toFixed(2)} GFLOP per forward, ` +
              `${args.rounds} rounds x ${reps} reps, interleaved`);
  console.log(`  ${'implementation'.padEnd(32)}${'median ms'.padStart(11)}${'GFLOP/s'.padStart(9)}` +
              `${'speed vs wasm'.padStart(15)}${'max |diff| vs f64'.padStart(19)}`);
  for (const im of impls) {
    if (im.error) {
      console.log(`  ${im.label.padEnd(32)}  not run: ${im.error}`);
      continue;
    }
    const speed = wasm.error ? NaN : wasm.median / im.median;
    const speedText = Number.isFinite(speed) ? `${fmt(speed, 2)}x` : 'n/a';
    console.log(`  ${im.label.padEnd(32)}${fmt(im.median, 2).padStart(11)}${fmt(im.gflops, 1).padStart(9)}` +
                `${speedText.padStart(15)}${exp(im.refDiff).padStart(19)}`);
  }
  console.log(`  largest difference between implementations: ${exp(worst.diff)} (${worst.pair}; ` +
              `reference: float64 on ${rows.length} rows)`);
  const threads = impls.filter((im) => !im.error && im.cpuPerWall.length);
  if (threads.length) {
    console.log('  threads at work: CPU time / wall time of the peer\'s process (about 1 on one thread): ' +
                threads.map((im) => `${im.key} ${fmt(median(im.cpuPerWall), 2)}`).join(', '));
  }

  const verdict = (cond) => (cond === null ? 'n/a ' : cond ? 'PASS' : 'FAIL');
  const have = (k) => !byKey[k].error;
  const targets = [
    [`wasm >= ${TARGETS.wasmGflops} GFLOP/s`, have('wasm') ? wasm.gflops >= TARGETS.wasmGflops : null,
     have('wasm') ? `${fmt(wasm.gflops, 1)} GFLOP/s` : ''],
    ['wasm >= onnxruntime-web', have('wasm') && have('ort') ? byKey.ort.median >= wasm.median : null,
     have('wasm') && have('ort') ? `${fmt(byKey.ort.median / wasm.median, 2)}x` : ''],
    [`wasm >= ${TARGETS.vsTfjs}x tfjs-wasm`,
     have('wasm') && have('tfjs') ? byKey.tfjs.median >= TARGETS.vsTfjs * wasm.median : null,
     have('wasm') && have('tfjs') ? `${fmt(byKey.tfjs.median / wasm.median, 2)}x` : ''],
    [`${WORKERS} wasm workers >= ort ${WORKERS} threads`,
     have('wasm_shared') && have('ort_threads') ? byKey.ort_threads.median >= byKey.wasm_shared.median : null,
     have('wasm_shared') && have('ort_threads')
       ? `${fmt(byKey.ort_threads.median / byKey.wasm_shared.median, 2)}x` : ''],
  ];
  for (const [name, cond, detail] of targets) {
    console.log(`  target ${name.padEnd(34)} ${verdict(cond)}  ${detail}`);
  }

  fs.rmSync(inputsFile, { force: true });
  return {
    tokens: T, d_model: D, heads: H, gflop: flops / 1e9, rounds: args.rounds, reps,
    implementations: impls.map((im) => ({
      key: im.key, label: im.label, error: im.error ?? null, ms: im.ms, median_ms: im.median ?? null,
      gflops: im.gflops ?? null, max_abs_diff_vs_float64: im.refDiff ?? null,
      cpu_per_wall: im.cpuPerWall.length ? median(im.cpuPerWall) : null,
    })),
    pairwise_max_abs_diff: pairs,
    targets: targets.map(([name, cond]) => ({ name, pass: cond })),
  };
}

// Softmax over (512, 512) rows, native and wasm interleaved: the wasm/native time ratio.
function benchSoftmax(args, problems) {
  const reps = args.quick ? 5 : 50;
  const ms = { native: [], wasm: [] };
  const programs = { native: args.native, wasm: args.wasm };
  console.log(`\nsoftmax over (512, 512) rows, ${args.rounds} rounds x ${reps} reps, interleaved`);
  for (const k of Object.keys(programs)) {
    if (!fs.existsSync(programs[k])) {
      console.log(`  not run: missing ${programs[k]}`);
      problems.push(`softmax: missing ${programs[k]}`);
      return null;
    }
  }
  try {
    for (let round = 0; round < args.rounds; ++round) {
      for (const k of ['wasm', 'native']) {
        const argv = ['--softmax', '--rows', '512', '--cols', '512', '--reps', String(reps)];
        const j = runMhaBench(k, programs[k], argv);
        ms[k].push(...j.ms);
      }
    }
  } catch (e) {
    console.log(`  not run: ${e.message}`);
    problems.push(`softmax: ${e.message}`);
    return null;
  }
  const native = median(ms.native);
  const wasm = median(ms.wasm);
  const ratio = wasm / native;
  console.log(`  native ${fmt(native, 3)} ms, wasm ${fmt(wasm, 3)} ms: wasm/native ${fmt(ratio, 2)}x`);
  const pass = ratio <= TARGETS.softmaxRatio ? 'PASS' : 'FAIL';
  console.log(`  target wasm within ${TARGETS.softmaxRatio}x native  ${pass}`);
  return { rows: 512, cols: 512, reps, native_median_ms: native, wasm_median_ms: wasm, ratio };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.only !== 'softmax') await initTfjs();
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const shown = (p) => (path.relative(ROOT, p).startsWith('..') ? p : path.relative(ROOT, p));
  console.log(`float32, single thread but the last two rows (${WORKERS} workers / threads); ` +
              `node ${process.version}, ${cpu}, ${os.cpus().length} cores` +
              `${args.quick ? ' [quick mode: timings are not meaningful]' : ''}`);
  if (args.only !== 'softmax') console.log(`peers: ${ortInfo()}; ${tfjsInfo()}`);
  console.log(`this project: ${shown(args.wasm)} and ${shown(args.native)} (mha_bench)`);
  console.log(`load average (1 min) ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores: other work ` +
              'on the machine slows every implementation; compare within one run');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-kernels-'));
  const problems = [];
  const results = { shapes: [], softmax: null };
  try {
    if (args.only !== 'softmax') {
      for (const shape of args.shapes) results.shapes.push(await benchShape(args, shape, tmp, problems));
    }
    if (args.only !== 'mha') results.softmax = benchSoftmax(args, problems);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (args.json) fs.writeFileSync(args.json, JSON.stringify(results, null, 1) + '\n');
  if (problems.length) {
    console.log('\nproblems:');
    for (const p of problems) console.log(`  ${p}`);
    process.exitCode = 1;
  }
}

await main();
