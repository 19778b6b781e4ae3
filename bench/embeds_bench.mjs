// Several figures on one course page (headless Chromium): when each of three embeds draws its first frame,
// measured from the course page's navigation, cold (a new browser context: empty HTTP and code caches) and
// warm (the same page loaded again), whether the later embeds took the compiled module of the first
// (timing.wasm_shared), and the memory one, two and three embeds add to the browser (the proportional set
// size of all its processes, /proc/PID/smaps_rollup, as embeds are added to one page).
// Usage (bench/run.sh does it): ATTENTION_DEMO_URL=http://127.0.0.1:PORT/ node bench/embeds_bench.mjs
// The course page comes from a server of its own on another origin (localhost), as a course site would.
import http from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { baseUrl, launchBrowser } from '../tests/browser/harness.mjs';

const quick = process.env.ATTN_BENCH_QUICK === '1';
const rounds = quick ? 1 : 5;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const FIGURES = ['?scene=order', '?scene=clock&d_model=4&pos=44', '?scene=mha&heads=4'];

// A course page with the first `n` figures, each after a paragraph.
function coursePage(n) {
  const figures = FIGURES.slice(0, n).map((q, i) =>
    `<p>Paragraph ${i + 1}.</p><div data-attention-demo="${q.replace(/&/g, '&amp;')}" data-height="400"></div>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Embeds</title>
<link rel="icon" href="data:,"><style>main{width:760px;margin:0 auto}</style></head><body><main>
${figures.join('\n')}
</main><script src="${baseUrl()}embed.js"></script></body></html>`;
}

const server = http.createServer((req, res) => {
  const n = Number(new URL(req.url, 'http://x').searchParams.get('n')) || 3;
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(coursePage(n));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const pageUrl = (n) => `http://localhost:${server.address().port}/course.html?n=${n}`;

// Loads the course page with `n` figures in `page`; resolves with each embed's first frame and start-up
// milestones in ms since the course page's navigation, once every embed has drawn.
async function load(page, n) {
  await page.goto(pageUrl(n), { waitUntil: 'commit' });
  await page.waitForFunction((k) => {
    const els = document.querySelectorAll('[data-attention-demo]');
    return els.length === k && [...els].every((el) => el.demo);
  }, n, { timeout: 60000 });
  await page.evaluate(() => Promise.all([...document.querySelectorAll('[data-attention-demo]')]
    .map((el) => el.demo.ready)));
  const origin = await page.evaluate(() => performance.timeOrigin);
  const frames = page.frames().filter((f) => f !== page.mainFrame());
  const out = [];
  for (const f of frames) {
    const t = await f.evaluate(() => ({ origin: performance.timeOrigin, ...window.attentionDemo.timing }));
    const at = (ms) => (ms === null || ms === undefined ? null : Math.round(t.origin + ms - origin));
    out.push({ first: at(t.first_frame_ms), compiled: at(t.wasm_compiled_ms), runtime: at(t.runtime_ready_ms),
               shared: Boolean(t.wasm_shared) });
  }
  return out.sort((a, b) => a.first - b.first);
}

// The proportional set size of the browser's processes in MB (the browser and all its children).
function browserPss(rootPid) {
  const children = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${d}/status`, 'utf8'))[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(d));
    } catch (gone) { /* the process ended while it was read */ }
  }
  let kb = 0;
  const todo = [rootPid];
  while (todo.length) {
    const pid = todo.pop();
    try {
      kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))[1]);
    } catch (gone) { /* ended */ }
    todo.push(...(children.get(pid) || []));
  }
  return kb / 1024;
}

// The browser's own process: the Chromium this node process started last (its child with the highest id).
function browserPid() {
  let found = null;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const status = readFileSync(`/proc/${d}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)[1]);
      if (ppid === process.pid && /^Name:\s+chrom/m.test(status)) found = Math.max(found || 0, Number(d));
    } catch (gone) { /* ended */ }
  }
  return found;
}

const browser = await launchBrowser();
try {
  // each round: cold then warm, with the compile shared between the embeds and, beside it, with sharing
  // kept off (an init script in every frame makes the shared slot unreadable): the ratio within one run
  const runs = { shared: { cold: [], warm: [] }, apart: { cold: [], warm: [] } };
  for (let r = 0; r < rounds; r++) {
    for (const mode of ['shared', 'apart']) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 2000 } });
      if (mode === 'apart') {
        await context.addInitScript(() => Object.defineProperty(window, 'attentionWasmShared',
          { get() { return undefined; }, set() {}, configurable: false }));
      }
      const page = await context.newPage();
      runs[mode].cold.push(await load(page, 3));
      runs[mode].warm.push(await load(page, 3));
      await context.close();
    }
  }
  for (const mode of ['shared', 'apart']) {
    for (const when of ['cold', 'warm']) {
      const list = runs[mode][when];
      const byIndex = [0, 1, 2].map((i) => median(list.map((run) => run[i].first)));
      const compiled = [0, 1, 2].map((i) => median(list.map((run) => run[i].compiled)));
      const runtime = [0, 1, 2].map((i) => median(list.map((run) => run[i].runtime)));
      const shared = list.map((run) => run.filter((e) => e.shared).length);
      console.log(`${mode} ${when}: first frames of embeds 1, 2, 3 at ${byIndex.join(' / ')} ms (module ready at ` +
                  `${compiled.join(' / ')}, instantiated at ${runtime.join(' / ')}; median of ${list.length}, ms ` +
                  `since the course page's navigation); ` +
                  `embeds on another's module: ${shared.join(', ')}`);
    }
  }
  console.log(`last embed's first frame, cold, each round: shared ${runs.shared.cold.map((run) => run[2].first)
    .join(', ')} ms; apart ${runs.apart.cold.map((run) => run[2].first).join(', ')} ms (target: 1500)`);

  // memory: one page in a browser of its own (no other browser of this run open), with no embed, then one,
  // two and three added by AttentionDemo.embed, each measured once it has drawn and 2 s have passed; the
  // median of `rounds` such pages
  await browser.close();
  const byCount = [[], [], [], []];
  for (let r = 0; r < rounds; r++) {
    const own = await launchBrowser();
    const pid = browserPid();
    try {
      const page = await own.newPage({ viewport: { width: 1280, height: 2000 } });
      await page.goto(pageUrl(0), { waitUntil: 'load' });
      await page.waitForTimeout(2000);
      byCount[0].push(browserPss(pid));
      for (let n = 1; n <= 3; n++) {
        await page.evaluate((q) => {
          const div = document.createElement('div');
          document.querySelector('main').appendChild(div);
          return window.AttentionDemo.embed(div, q, { height: 400 }).ready.then(() => true);
        }, FIGURES[n - 1]);
        await page.waitForTimeout(2000);
        byCount[n].push(browserPss(pid));
      }
    } finally {
      await own.close();
    }
  }
  const mb = byCount.map(median);
  const added = mb.slice(1).map((m, i) => (m - mb[i]).toFixed(0));
  console.log(`memory (PSS of every browser process, median of ${rounds}): ${mb.map((m) => m.toFixed(0)).join(' / ')} ` +
              `MB with 0..3 embeds; each embed adds ${added.join(' / ')} MB (target after the first: at most 32)`);
} finally {
  await browser.close();
  server.close();
}
