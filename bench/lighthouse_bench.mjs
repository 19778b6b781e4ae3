// Lighthouse 12's mobile performance score of the page served compressed (the issue's target: score at least
// 90, LCP at most 2.5 s, TBT at most 200 ms): dist/ served from its pre-compressed .br/.gz copies on loopback,
// Lighthouse's default mobile run (simulated throttling), performance only, in Debian's Chromium, offline.
// Usage: node bench/lighthouse_bench.mjs   (after `npm ci` in bench/lighthouse)
//   ATTENTION_DEMO_DIST (default dist): the built site. ATTN_BENCH_QUICK=1: one run instead of three.
//   ATTN_LIGHTHOUSE_JSON=DIR: also writes each run's Lighthouse report to DIR/lighthouse-N.json.
// A missed target is a figure, not a failure: the exit status is non-zero only when the server, Chromium or
// Lighthouse fails.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

// lighthouse and chrome-launcher (a dependency of lighthouse) from bench/lighthouse/node_modules
const fromHere = createRequire(new URL('./lighthouse/package.json', import.meta.url));
const lighthousePath = fromHere.resolve('lighthouse');
const { default: lighthouse } = await import(pathToFileURL(lighthousePath));
const chromeLauncher = await import(pathToFileURL(createRequire(lighthousePath).resolve('chrome-launcher')));

const dist = path.resolve(process.env.ATTENTION_DEMO_DIST || new URL('../dist', import.meta.url).pathname);
const runs = process.env.ATTN_BENCH_QUICK === '1' ? 1 : 3;
const jsonDir = process.env.ATTN_LIGHTHOUSE_JSON;
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless=new', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
  // offline: no host name resolves except the loopback address the page is served on
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.txt': 'text/plain; charset=utf-8' };

if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error(`lighthouse_bench: no ${dist}/index.html (build the site or set ATTENTION_DEMO_DIST)`);
  process.exit(1);
}

// The static host: name.br (else name.gz) with its Content-Encoding when the client accepts it, else the
// plain file; counts what it sent by encoding (and names what went plain).
const sent = { br: 0, gzip: 0, plain: 0 }, plain = new Set();
function serve(req, res) {
  const name = decodeURIComponent(new URL(req.url, 'http://host').pathname).replace(/^\/+/, '') || 'index.html';
  const file = path.join(dist, path.normalize(name));
  if (!file.startsWith(dist + path.sep) || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
    res.writeHead(404, { 'Cache-Control': 'no-cache' });
    res.end();
    return;
  }
  const accepts = (req.headers['accept-encoding'] || '').split(',').map((s) => s.trim().split(';')[0]);
  const encoding = ['br', 'gzip'].find((e) => accepts.includes(e) && fs.existsSync(`${file}.${e === 'br' ? 'br' : 'gz'}`));
  const body = fs.readFileSync(encoding ? `${file}.${encoding === 'br' ? 'br' : 'gz'}` : file);
  sent[encoding || 'plain']++;
  if (!encoding) plain.add(`${name} (Accept-Encoding: ${req.headers['accept-encoding'] || 'none'})`);
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
    'Content-Length': body.length, 'Cache-Control': 'no-cache', 'Vary': 'Accept-Encoding',
    ...(encoding ? { 'Content-Encoding': encoding } : {}) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
const server = http.createServer(serve);
await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/index.html`;

// One Lighthouse run in a fresh Chromium: its figures (times in ms; null for a metric Lighthouse could not
// compute, such as NO_LCP when the page never reported a largest contentful paint), or throws.
async function lighthouseRun(n) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS, logLevel: 'silent' });
  const consoleError = console.error;
  // (Lighthouse's trace engine prints a metric's error with its stack; the audits say it once, below)
  console.error = (...args) => { if (args[0]?.constructor?.name !== 'LanternError') consoleError(...args); };
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error',
      onlyCategories: ['performance'] });
    if (jsonDir) fs.writeFileSync(path.join(jsonDir, `lighthouse-${n}.json`), result.report);
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    for (const w of lhr.runWarnings) console.log(`  (run ${n} warning: ${w})`);
    const ids = ['largest-contentful-paint', 'total-blocking-time', 'first-contentful-paint', 'speed-index',
      'cumulative-layout-shift', 'max-potential-fid', 'mainthread-work-breakdown', 'bootup-time'];
    const errors = ids.filter((id) => lhr.audits[id].errorMessage).map((id) => `${id}: ${lhr.audits[id].errorMessage}`);
    const [lcp, tbt, fcp, si, cls, mpfid, mainthread, bootup] = ids.map((id) => lhr.audits[id].numericValue ?? null);
    const score = lhr.categories.performance.score;
    return { score: score === null ? null : Math.round(score * 100), lcp, tbt, fcp, si, cls, mpfid, mainthread,
      bootup, errors, breakdown: lhr.audits['mainthread-work-breakdown'].details?.items ?? [],
      version: lhr.lighthouseVersion, chrome: lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] };
  } finally {
    console.error = consoleError;
    await chrome.kill();
  }
}

// figures; "n/a" where Lighthouse has none
const na = (f) => (v) => (v === null || v === undefined ? 'n/a' : f(v));
const s = na((v) => `${(v / 1000).toFixed(2)} s`);
const ms = na((v) => `${Math.round(v)} ms`);
const line = (label, r) => `${label.padEnd(7)} score ${na(String)(r.score).padStart(3)}  LCP ${s(r.lcp)}  TBT ${ms(r.tbt)}` +
  `  FCP ${s(r.fcp)}  SI ${s(r.si)}  CLS ${na((v) => v.toFixed(3))(r.cls)}  max-FID ${ms(r.mpfid)}` +
  `  main thread ${s(r.mainthread)}  bootup ${s(r.bootup)}`;
// the median of the runs that have the figure (null when none has)
const median = (xs) => {
  const v = xs.filter((x) => x !== null).sort((a, b) => a - b);
  if (!v.length) return null;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

let status = 0;
const results = [];
try {
  if (jsonDir) fs.mkdirSync(jsonDir, { recursive: true });
  for (let n = 1; n <= runs; ++n) {
    const r = await lighthouseRun(n);
    if (n === 1) console.log(`Lighthouse ${r.version}, ${r.chrome}, mobile (simulated throttling), ${url}`);
    console.log(line(`run ${n}`, r) + (r.errors.length ? `  (${r.errors.join('; ')})` : ''));
    results.push(r);
  }
  const m = Object.fromEntries(['score', 'lcp', 'tbt', 'fcp', 'si', 'cls', 'mpfid', 'mainthread', 'bootup']
    .map((k) => [k, median(results.map((r) => r[k]))]));
  console.log(line('median', m));
  const last = results[results.length - 1];
  console.log(`main thread by kind (run ${results.length}): ` +
    last.breakdown.map((i) => `${i.groupLabel} ${Math.round(i.duration)} ms`).join(', '));
  console.log(`served: ${sent.br} br, ${sent.gzip} gzip, ${sent.plain} plain` +
    (plain.size ? ` (plain: ${[...plain].join(', ')})` : ''));
  const verdict = (v, ok) => (v !== null && ok ? 'PASS' : 'FAIL');
  const scored = results.filter((r) => r.score !== null).length;
  console.log(`targets (median of the ${scored} of ${runs} runs with a score): score ${na(String)(m.score)} >= 90 ` +
    `${verdict(m.score, m.score >= 90)}, LCP ${s(m.lcp)} <= 2.5 s ${verdict(m.lcp, m.lcp <= 2500)}, ` +
    `TBT ${ms(m.tbt)} <= 200 ms ${verdict(m.tbt, m.tbt <= 200)}`);
} catch (e) {
  console.error(`lighthouse_bench: ${e.stack || e}`);
  status = 1;
} finally {
  server.close();
}
process.exit(status);
