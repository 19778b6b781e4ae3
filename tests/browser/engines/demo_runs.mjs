// What the cross-engine tests and bench/engines_bench.mjs both do with the demo on a driver page: load it
// and read its start-up milestones, and train the Train scene until it stops.
import { baseUrl, waitReady, api } from '../harness.mjs';

// The Train scene the tests and the benchmark train: sinusoidal positions, seeded.
export const TRAIN_QUERY = 'scene=train&positions=sinusoidal&seed=1';

// Loads index.html?query, waits for attentionDemo.ready (and 3 frames); returns attentionDemo.timing
// (ms since navigation: wasm_downloaded_ms, wasm_compiled_ms, runtime_ready_ms, first_frame_ms).
export async function openDemo(page, query, timeout = 120000) {
  await page.goto(baseUrl() + 'index.html?' + query);
  await waitReady(page, timeout);
  return page.evaluate(() => window.attentionDemo.timing);
}

// Waits (at most `timeout` ms) until the loaded Train scene's session runs in the compute worker, which
// starts after the first frame; returns whether it does.
export async function waitForWorker(page, timeout = 20000) {
  for (const until = Date.now() + timeout; Date.now() < until;) {
    if ((await api(page, 'state')).shown.in_worker) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

// set({train: 'run'}) on a loaded Train scene (once its session is in the compute worker), then state() twice
// a second (it is large there) until shown.running is false; fails after `timeout` ms. Returns
// {state, seconds} (wall time in node, from the set()).
export async function trainUntilStopped(page, timeout = 240000) {
  await waitForWorker(page);
  const started = Date.now();
  const { frame, r } = await page.evaluate(() => ({ frame: window.attentionDemo.frameStats().frame,
                                                    r: window.attentionDemo.set({ train: 'run' }) }));
  if (!r.ok) throw new Error(`set({train: 'run'}) -> ${JSON.stringify(r)}`);
  // state() is the last frame's: two frames after set() it shows the training running
  await page.waitForFunction((f) => window.attentionDemo.frameStats().frame > f + 1, frame, { timeout: 30000 });
  for (;;) {
    const state = await api(page, 'state');
    const seconds = (Date.now() - started) / 1000;
    if (!state.shown.running) return { state, seconds };
    if (seconds * 1000 > timeout) throw new Error(`still training after ${seconds} s (${state.shown.steps} steps)`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
