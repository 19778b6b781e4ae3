// The page's start-up on its main thread, in headless Chromium: from navigation to 500 ms after the first
// frame, every long task (a PerformanceObserver for 'longtask', buffered from the page's start), then per
// build the medians of the longest task after the .wasm compiled, the blocking time (each long task's time
// over 50 ms, summed, as Lighthouse counts it), the number of long tasks and the first frame. Each load is a
// fresh browser context (nothing cached). With ATTN_STARTUP_COMPARE_URL (another build served elsewhere) the
// two builds load in turns, round by round, so the machine's noise falls on both alike.
// Usage (bench/run.sh does it, dist/ served): ATTENTION_DEMO_URL=... node bench/startup_bench.mjs
//   ATTN_STARTUP_COMPARE_URL=http://127.0.0.1:PORT/  a second build, shown beside the first
// ATTN_BENCH_QUICK=1: one round (the plumbing).
import { launchBrowser, baseUrl } from '../tests/browser/harness.mjs';

const rounds = process.env.ATTN_BENCH_QUICK === '1' ? 1 : 7;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const builds = [{ name: 'this build', url: baseUrl(), loads: [] }];
if (process.env.ATTN_STARTUP_COMPARE_URL) {
  const url = process.env.ATTN_STARTUP_COMPARE_URL.replace(/\/?$/, '/');
  builds.push({ name: 'compared', url, loads: [] });
}

// Records the page's long tasks as [start, duration] ms in window.startupTasks.
function watchLongTasks() {
  window.startupTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.startupTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
}

async function load(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(watchLongTasks);
    const page = await context.newPage();
    await page.goto(url + 'index.html?scene=clock', { waitUntil: 'load' });
    await page.waitForFunction(() => window.attentionDemo && window.attentionDemo.timing.first_frame_ms,
      null, { timeout: 60000 });
    await page.waitForTimeout(500);
    return await page.evaluate(() => {
      const t = window.attentionDemo.timing, end = t.first_frame_ms + 500;
      const tasks = window.startupTasks.filter(([start]) => start < end);
      const after = tasks.filter(([start, d]) => start + d > t.wasm_compiled_ms).map(([, d]) => d);
      return { first: t.first_frame_ms, longest: Math.max(0, ...after), count: tasks.length,
               blocking: tasks.reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0),
               tasks: tasks.map(([s, d]) => `${Math.round(s)}+${Math.round(d)}`).join(' ') };
    });
  } finally {
    await context.close();
  }
}

const browser = await launchBrowser();
try {
  for (let r = 0; r < rounds; r++) {
    for (const b of builds) b.loads.push(await load(browser, b.url));
  }
} finally {
  await browser.close();
}

console.log(`start-up of ?scene=clock in headless Chromium, ${rounds} fresh load(s) per build` +
            (builds.length > 1 ? ', the builds in turns' : '') + '; long tasks as start+duration ms:');
for (const b of builds) {
  for (const l of b.loads) console.log(`  ${b.name}: ${l.tasks}`);
}
console.log('\nbuild        longest task after compile  blocking time  long tasks  first frame   (medians, ms)');
for (const b of builds) {
  const m = (k) => median(b.loads.map((l) => l[k]));
  console.log(`${b.name.padEnd(12)} ${m('longest').toFixed(0).padStart(26)} ${m('blocking').toFixed(0).padStart(14)}` +
              ` ${m('count').toFixed(0).padStart(11)} ${m('first').toFixed(0).padStart(12)}`);
}
