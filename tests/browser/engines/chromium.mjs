// The driver's Chromium adapter: Debian's Chromium through playwright-core, launched by harness.mjs with
// its SwiftShader WebGL 2 flags (headless, no display needed).
import { launchBrowser } from '../harness.mjs';

export async function launchEngine(viewport) {
  const browser = await launchBrowser();
  return {
    name: 'chromium',
    version: browser.version(),
    async open(url) {
      const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
      const driven = {
        goto: (to) => page.goto(to, { waitUntil: 'load' }),
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        waitForFunction: (fn, arg, { timeout = 30000 } = {}) => page.waitForFunction(fn, arg, { timeout, polling: 'raf' }),
        screenshot: () => page.screenshot({ type: 'png', animations: 'allow', caret: 'initial' }),
        type: (text) => page.keyboard.type(text),
        click: (x, y) => page.mouse.click(x, y),
        close: () => page.close(),
      };
      if (url) await driven.goto(url);
      return driven;
    },
    close: () => browser.close(),
  };
}
