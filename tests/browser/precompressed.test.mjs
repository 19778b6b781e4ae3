// dist/'s pre-compressed copies work as a static host would send them: a server that answers each request
// with name.br (or name.gz) and the matching Content-Encoding, never compressing anything itself, serves a
// page that starts and shows the core's numbers, and every file it sent was a pre-compressed copy.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { launchBrowser, watchErrors, waitReady, api } from './harness.mjs';

const DIST = process.env.ATTENTION_DEMO_DIST;
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
                '.wasm': 'application/wasm' };

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

// A static host with pre-compression on: name.<encoding> for a client that accepts it, else 406 (so a
// missing copy fails the test instead of being hidden by a plain file). Records what it sent.
function startHost(encoding) {
  const sent = [];
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, 'http://host').pathname).replace(/^\/+/, '') || 'index.html';
    const file = path.join(DIST, path.normalize(name));
    const copy = `${file}.${encoding === 'br' ? 'br' : 'gz'}`;
    const accepts = (req.headers['accept-encoding'] || '').split(',').map((s) => s.trim().split(';')[0]);
    if (!file.startsWith(DIST) || !fs.existsSync(copy) || !accepts.includes(encoding)) {
      res.writeHead(fs.existsSync(file) ? 406 : 404);
      res.end();
      return;
    }
    const body = fs.readFileSync(copy);
    sent.push({ name, bytes: body.length, plain: fs.statSync(file).size });
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
                         'Content-Encoding': encoding, 'Content-Length': body.length });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, sent })));
}

for (const encoding of ['br', 'gzip']) {
  test(`the page runs from the pre-compressed .${encoding === 'br' ? 'br' : 'gz'} copies`, async () => {
    assert.ok(DIST, 'ATTENTION_DEMO_DIST is set by tests/browser/run.sh');
    const { server, sent } = await startHost(encoding);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`http://127.0.0.1:${server.address().port}/index.html?scene=clock&d_model=4&pos=44&pos2=0`);
      await waitReady(page);
      const state = await api(page, 'state');
      assert.equal(state.error, '');
      assert.equal(state.shown.readings.length, 4, 'the clock at d_model 4 drew its readings');
      assert.ok(Math.abs(state.shown.readings[0] - Math.sin(44)) < 1e-6, 'hand 0 at position 44 reads sin(44)');
      assert.deepEqual(errors, []);
      for (const f of ['index.html', 'attention_demo.js', 'attention_demo.wasm', 'page.js']) {
        const s = sent.find((x) => x.name === f);
        assert.ok(s, `${f} was sent pre-compressed (sent: ${sent.map((x) => x.name).join(', ')})`);
        assert.ok(s.bytes < s.plain, `${f}: ${s.bytes} bytes on the wire for ${s.plain}`);
      }
    } finally {
      await context.close();
      server.close();
    }
  });
}
