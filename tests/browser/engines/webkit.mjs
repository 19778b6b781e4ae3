// The driver's WebKit adapter: WebKitGTK's MiniBrowser through WebKitWebDriver (Debian webkit2gtk-driver),
// started on a free loopback port on the display it is given, driven with selenium-webdriver (W3C WebDriver).
import { spawn } from 'node:child_process';
import net from 'node:net';
import { Builder, Key, Origin } from 'selenium-webdriver';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER || '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

// The driver's key names (Playwright's and Puppeteer's) as WebDriver's key codes.
const SELENIUM_KEYS = { Tab: Key.TAB, Enter: Key.ENTER, ArrowLeft: Key.ARROW_LEFT, ArrowRight: Key.ARROW_RIGHT,
                        ArrowUp: Key.ARROW_UP, ArrowDown: Key.ARROW_DOWN, Home: Key.HOME, End: Key.END };

// A loopback port nothing listens on at the moment of asking.
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Starts WebKitWebDriver on a free port; resolves {child, url} once it answers /status. Another server can
// take the port between asking and binding: then the driver exits and the next port is tried.
async function startDriver(tries = 3) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], {
      env: { ...process.env, LIBGL_ALWAYS_SOFTWARE: '1' }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 'a signal')));
    const url = `http://127.0.0.1:${port}`;
    for (let waited = 0; waited < 10000; waited += 100) {
      const up = await fetch(`${url}/status`).then((r) => r.ok, () => false);
      if (up) return { child, url };
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 100))]);
      if (code !== null) break;
    }
    child.kill();
    if (attempt >= tries) throw new Error(`${WEBKIT_DRIVER} did not start on port ${port}: ${stderr.trim()}`);
  }
}

// The script WebDriver runs for evaluate(fn, arg): fn's source written into it (no eval in the page, which
// a page's CSP could forbid), its result or its error handed back.
const asyncCall = (source) => `const done = arguments[arguments.length - 1];
Promise.resolve(arguments[0]).then(${source}).then(
  (value) => done({ ok: true, value: value === undefined ? null : value }),
  (e) => done({ ok: false, error: e instanceof Error ? e.name + ': ' + e.message : String(e) }));`;

// waitForFunction's loop: fn(arg) checked at every animation frame until truthy, at most `timeout` ms.
const poll = (source) => `async ([arg, timeout]) => {
  const fn = ${source};
  const start = performance.now();
  for (;;) {
    const value = await fn(arg);
    if (value) return value;
    if (performance.now() - start > timeout) throw new Error('waitForFunction: not true within ' + timeout + ' ms');
    await new Promise((r) => requestAnimationFrame(r));
  }
}`;

export async function launchEngine(viewport) {
  const { child, url } = await startDriver();
  const stopDriver = () => { if (child.exitCode === null) child.kill(); };
  process.on('exit', stopDriver);
  let driver;
  const run = async (source, arg) => {
    const r = await driver.executeAsyncScript(asyncCall(source), arg === undefined ? null : arg);
    if (!r.ok) throw new Error(`in the page: ${r.error}`);
    return r.value;
  };
  const evaluate = (fn, arg) => run(fn.toString(), arg);
  let caps;
  try {
    driver = await new Builder().disableEnvironmentOverrides().usingServer(url).withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
    }).build();
    await driver.manage().setTimeouts({ script: 600000, pageLoad: 120000 });
    caps = await driver.getCapabilities();
    // WebDriver sets the window's outer size: on the first (blank) page, grow it until the viewport fits.
    for (let i = 0; ; i++) {
      const inner = await evaluate(() => [window.innerWidth, window.innerHeight]);
      if (inner[0] === viewport.width && inner[1] === viewport.height) break;
      if (i === 3) throw new Error(`MiniBrowser's viewport stays ${inner.join(' x ')}, not ${viewport.width} x ${viewport.height}`);
      const rect = await driver.manage().window().getRect();
      await driver.manage().window().setRect({ width: rect.width + viewport.width - inner[0],
                                               height: rect.height + viewport.height - inner[1] });
    }
  } catch (e) {
    if (driver) await driver.quit().catch(() => {});
    stopDriver();
    throw e;
  }
  return {
    name: 'webkit',
    version: caps.get('browserVersion'),
    async open(to) {
      const page = {
        goto: (u) => driver.get(u),
        evaluate,
        waitForFunction: (fn, arg, { timeout = 30000 } = {}) => run(poll(fn.toString()), [arg, timeout]),
        screenshot: async () => Buffer.from(await driver.takeScreenshot(), 'base64'),
        type: (text) => driver.actions().sendKeys(text).perform(),
        press: (key) => driver.actions().sendKeys(SELENIUM_KEYS[key] ?? key).perform(),
        click: (x, y) => driver.actions().move({ x: Math.round(x), y: Math.round(y), origin: Origin.VIEWPORT })
          .click().perform(),
        close: async () => {},  // one window per session: closed with the browser
      };
      if (to) await page.goto(to);
      return page;
    },
    async close() {
      try { await driver.quit(); } finally { stopDriver(); process.off('exit', stopDriver); }
    },
  };
}
