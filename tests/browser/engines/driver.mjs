// The cross-engine driver: the same few page operations on Chromium, Firefox ESR and WebKitGTK, so one set
// of tests (and bench/engines_bench.mjs) runs on each. launch(engine) starts one browser and returns
//   { name, version, open(url) -> page, close() }
// and every page has the operations below. Their names and arguments are Playwright's, so the shared
// helpers of harness.mjs (waitReady, waitFrames, api, screenshot, canvasInfo) and sampled_pixels.mjs work on
// any engine's page:
//   goto(url)                           navigate and wait for the load event
//   evaluate(fn, arg)                   run fn(arg) in the page (fn may be async), its JSON-able result
//   waitForFunction(fn, arg, {timeout}) resolve once fn(arg) is truthy in the page (checked every frame)
//   screenshot()                        the viewport as a PNG Buffer
//   type(text)                          type text into the focused element, key by key
//   press(key)                          press and release one key (Tab, Enter, ArrowLeft...ArrowDown, Home, End)
//   click(x, y)                         click at a point of the viewport (CSS px)
//   close()                             close the page
// Firefox and WebKit draw WebGL 2 only with a display: run them under with_display.sh (run.sh does).
export const ENGINES = ['chromium', 'firefox', 'webkit'];

// The viewport every engine's page gets (CSS px).
export const VIEWPORT = { width: 1280, height: 800 };

const adapters = {
  chromium: () => import('./chromium.mjs'),
  firefox: () => import('./firefox.mjs'),
  webkit: () => import('./webkit.mjs'),
};

// The engine over a Playwright or Puppeteer `browser`, whose pages share evaluate, keyboard.type and
// .press, mouse.click and close; newPage() opens one at the viewport, differ(page) gives its goto, waitForFunction and
// screenshot in the driver's terms. open(url) goes to url when given.
export function puppetEngine({ name, version, browser, newPage, differ }) {
  return {
    name,
    version,
    async open(url) {
      const page = await newPage();
      const driven = {
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        type: (text) => page.keyboard.type(text),
        press: (key) => page.keyboard.press(key),
        click: (x, y) => page.mouse.click(x, y),
        close: () => page.close(),
        ...differ(page),
      };
      if (url) await driven.goto(url);
      return driven;
    },
    close: () => browser.close(),
  };
}

export async function launch(engine, viewport = VIEWPORT) {
  if (!adapters[engine]) throw new Error(`unknown engine '${engine}' (one of ${ENGINES.join(', ')})`);
  if (engine !== 'chromium' && !process.env.DISPLAY) {
    throw new Error(`${engine} needs a display for WebGL 2: run under tests/browser/engines/with_display.sh`);
  }
  const { launchEngine } = await adapters[engine]();
  return launchEngine(viewport);
}

// The engine named by ATTN_ENGINE (run.sh sets it), checked against ENGINES.
export function engineFromEnv() {
  const engine = process.env.ATTN_ENGINE;
  if (!ENGINES.includes(engine)) {
    throw new Error(`ATTN_ENGINE must be one of ${ENGINES.join(', ')} (got '${engine}'): ` +
                    'run the cross-engine tests with tests/browser/engines/run.sh');
  }
  return engine;
}
