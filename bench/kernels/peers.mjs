// The peers of the kernel benchmark, in this node process: onnxruntime-web (wasm execution provider) and
// tfjs-backend-wasm, each on one thread with SIMD. Each makes a runner: run() does one forward and returns
// the (T, D) output as a Float32Array; dispose() frees it.
import * as ort from 'onnxruntime-web';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import {
  getThreadsCount, setThreadsCount, version_wasm as tfjsWasmVersion,
} from '@tensorflow/tfjs-backend-wasm';
import { mhaModel } from './onnx_mha.mjs';

export const versions = { ort: ort.env.versions.web, tfjs: tfjsWasmVersion, tfjsCore: tf.version_core };

// --- onnxruntime-web ---
ort.env.wasm.numThreads = 1; // one thread: no worker pool
ort.env.wasm.simd = true; // the SIMD build (the only one 1.2x ships)
ort.env.wasm.proxy = false; // run on this thread, not in a proxy worker
ort.env.logLevel = 'error';

export async function ortRunner({ x, wQkv, wO }, T, D, H) {
  const session = await ort.InferenceSession.create(mhaModel(T, D, H, wQkv, wO), {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  const feeds = { x: new ort.Tensor('float32', x, [T, D]) };
  return {
    async run() {
      const { y } = await session.run(feeds);
      const out = y.data;
      y.dispose();
      return out;
    },
    async dispose() {
      await session.release();
    },
  };
}

export function ortInfo() {
  const { numThreads, simd } = ort.env.wasm;
  return `onnxruntime-web ${versions.ort} (wasm EP, numThreads ${numThreads}, simd ${simd})`;
}

// --- tfjs-backend-wasm ---
let tfReady = null;
export function initTfjs() {
  if (!tfReady) {
    // The single-threaded SIMD binary: no worker pool at all, and one XNNPACK thread.
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    tf.env().set('WASM_HAS_SIMD_SUPPORT', true);
    setThreadsCount(1);
    tfReady = tf.setBackend('wasm').then(async (ok) => {
      if (!ok || tf.getBackend() !== 'wasm') throw new Error('tfjs: the wasm backend did not start');
      await tf.ready();
    });
  }
  return tfReady;
}

export async function tfjsRunner({ x, wQkv, wO }, T, D, H) {
  await initTfjs();
  const dk = D / H;
  const xt = tf.tensor2d(x, [T, D]);
  const wq = tf.tensor2d(wQkv, [D, 3 * D]);
  const wo = tf.tensor2d(wO, [D, D]);
  const scale = tf.scalar(1 / Math.sqrt(dk));
  // (T, D) -> (H, T, dk)
  const heads = (m) => tf.transpose(tf.reshape(m, [T, H, dk]), [1, 0, 2]);
  const forward = () =>
    tf.tidy(() => {
      const [q, k, v] = tf.split(tf.matMul(xt, wq), 3, 1); // 3 x (T, D)
      const scores = tf.mul(tf.matMul(heads(q), heads(k), false, true), scale); // (H, T, T)
      const weights = tf.softmax(scores); // over the last axis
      const concat = tf.reshape(tf.transpose(tf.matMul(weights, heads(v)), [1, 0, 2]), [T, D]);
      return tf.matMul(concat, wo); // (T, D)
    });
  return {
    async run() {
      const y = forward();
      const out = y.dataSync();
      y.dispose();
      return out;
    },
    async dispose() {
      tf.dispose([xt, wq, wo, scale]);
    },
  };
}

export function tfjsInfo() {
  const simd = tf.env().getBool('WASM_HAS_SIMD_SUPPORT');
  return `tfjs-backend-wasm ${versions.tfjs} + tfjs-core ${versions.tfjsCore} ` +
         `(threads ${getThreadsCount()}, simd ${simd})`;
}
