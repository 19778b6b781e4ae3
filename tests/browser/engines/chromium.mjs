// The driver's Chromium adapter: Debian's Chromium through playwright-core, launched by harness.mjs with
// its SwiftShader WebGL 2 flags (headless, no display needed).
import { launchBrowser } from '../harness.mjs';
import { puppetEngine } from './driver.mjs';

export async function launchEngine(viewport) {
  const browser = await launchBrowser();
  return puppetEngine({
    name: 'chromium',
    version: browser.version(),
    browser,
    newPage: () => browser.newPage({ viewport, deviceScaleFactor: 1 }),
    differ: (page) => ({
      goto: (to) => page.goto(to, { waitUntil: 'load' }),
      waitForFunction: (fn, arg, { timeout = 30000 } = {}) => page.waitForFunction(fn, arg, { timeout, polling: 'raf' }),
      screenshot: () => page.screenshot({ type: 'png', animations: 'allow', caret: 'initial' }),
    }),
  });
}
