// The page's compute worker (dist/compute_worker.js with dist/attention_demo.js and .wasm, unchanged) run in
// node, outside any browser: a worker's globals (self, importScripts, postMessage) are emulated in node's
// main context. The page's side is played by `TrainDriver`, which writes the Train scene's commands and
// reads its updates in the byte layout of src/app/logic/train_messages.cpp (only what it needs: the
// session's progress). For bench/worker_bench.mjs and tests/browser/worker_node.test.mjs.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

export const SCHEMES = ['none', 'sinusoidal', 'learned', 'rope', 'alibi', 'relative'];  // attn::Scheme's order
const COMMAND_TAG = 0x434e5254, UPDATE_TAG = 0x554e5254;
export const TASKS = ['router', 'induction'];  // train_ui::Task's order
export const Kind = { Start: 0, Detach: 1, Run: 2, Ack: 3 };
export const Stop = ['none', 'target', 'max_steps', 'error'];

// A Command as bytes.
export function command({ kind, generation, key = {}, run = false, maxSteps = 0, acked = 0 }) {
  const b = new DataView(new ArrayBuffer(53));
  let at = 0;
  const i32 = (v) => { b.setInt32(at, v, true); at += 4; };
  const i64 = (v) => { b.setBigInt64(at, BigInt(v), true); at += 8; };
  b.setUint32(at, COMMAND_TAG, true); at += 4;
  i32(kind); i64(generation);
  i32(SCHEMES.indexOf(key.positions ?? 'none')); i32(key.d_model ?? 0); i32(key.heads ?? 0);
  i32(key.layers ?? 0); i32(key.seed ?? 0); i32(TASKS.indexOf(key.task ?? 'router'));
  b.setUint8(at, run ? 1 : 0); at += 1;
  i32(maxSteps); i64(acked);
  return b.buffer;
}

// The leading fields of an Update (generation, stop and the session's progress).
export function updateProgress(buffer) {
  const b = new DataView(buffer);
  let at = 0;
  const u32 = () => { at += 4; return b.getUint32(at - 4, true); };
  const i32 = () => { at += 4; return b.getInt32(at - 4, true); };
  const f32 = () => { at += 4; return b.getFloat32(at - 4, true); };
  const f64 = () => { at += 8; return b.getFloat64(at - 8, true); };
  const i64 = () => { at += 8; return Number(b.getBigInt64(at - 8, true)); };
  const u8 = () => b.getUint8(at++);
  if (u32() !== UPDATE_TAG) throw new Error('not a train update');
  const u = { generation: i64(), stop: Stop[i32()], has_trainer: u8() === 1, steps: i32(), loss: f32() };
  u.metrics = { train_accuracy: f32(), test_accuracy: f32(), flipped_pair_accuracy: f32(),
    max_pair_difference: f32(), test_loss: f32() };
  u.metrics_step = i32(); u.train_metrics_step = i32(); u.evaluating = u8() === 1;
  u.target_step = i32(); u.target_seconds = f64(); u.seconds = f64(); u.steps_per_second = f64();
  return u;
}

// Loads the worker from `dist` into this process; resolves once its runtime is ready. Its messages to the
// page go to onMessage(data).
export async function startWorker(dist, onMessage) {
  const bytes = fs.readFileSync(path.join(dist, 'attention_demo.wasm'));
  const module = await WebAssembly.compile(bytes);
  return new Promise((resolve, reject) => {
    globalThis.self = globalThis;
    // the worker's own tick channel must not keep node running once nothing waits for it (TrainDriver.run
    // holds node up while it waits)
    const NodeChannel = globalThis.MessageChannel;
    globalThis.MessageChannel = function MessageChannel() {
      const c = new NodeChannel();
      const port1 = c.port1;
      return {
        port2: c.port2,
        port1: { set onmessage(f) { port1.onmessage = f; port1.unref(); } },  // (a listener refs it)
      };
    };
    globalThis.WorkerGlobalScope = function WorkerGlobalScope() {};
    globalThis.location = { href: 'file://' + path.resolve(dist) + '/compute_worker.js' };
    globalThis.importScripts = (file) =>
      vm.runInThisContext(fs.readFileSync(path.join(dist, file), 'utf8'), { filename: file });
    globalThis.postMessage = (data) => {
      if (data && data.ready) resolve(globalThis.self.onmessage);
      else if (data && data.failed) reject(new Error(data.failed));
      else onMessage(data);
    };
    importScripts('compute_worker.js');
    globalThis.self.onmessage({ data: { module, glue: 'attention_demo.js' } });
  });
}

// Plays the Train scene against a worker: start(key), run(maxSteps), and each update acknowledged as the
// page does; resolves run() when the session stops by itself.
export class TrainDriver {
  constructor(post) {
    this.post = post;
    this.generation = 0;
    this.applied = 0;
    this.last = null;
    this.waiting = null;
  }
  receive(buffer) {
    const u = updateProgress(buffer);
    if (u.generation !== this.generation) return;
    this.last = u;
    this.post(command({ kind: Kind.Ack, generation: this.generation, acked: ++this.applied }));
    if (u.stop !== 'none' && this.waiting) {
      const done = this.waiting;
      this.waiting = null;
      done(u);
    }
  }
  start(key) {
    this.generation += 1;
    this.applied = 0;
    this.post(command({ kind: Kind.Start, generation: this.generation, key }));
  }
  run(maxSteps) {
    const awake = setInterval(() => {}, 1000);
    return new Promise((resolve) => {
      this.waiting = (u) => {
        clearInterval(awake);
        resolve(u);
      };
      this.post(command({ kind: Kind.Run, generation: this.generation, run: true, maxSteps }));
    });
  }
}
