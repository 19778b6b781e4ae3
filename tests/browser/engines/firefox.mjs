// The driver's Firefox adapter: Debian's Firefox ESR through puppeteer-core over WebDriver BiDi, headful
// (headless Firefox has no WebGL 2 here) on the display it is given, with Mesa's software GL.
import puppeteer from 'puppeteer-core';
import { puppetEngine } from './driver.mjs';

export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';

export async function launchEngine(viewport) {
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: FIREFOX, headless: false, defaultViewport: viewport,
    env: { ...process.env, LIBGL_ALWAYS_SOFTWARE: '1' },
    protocolTimeout: 600000,
  });
  return puppetEngine({
    name: 'firefox',
    version: await browser.version(),
    browser,
    newPage: async () => {
      const page = await browser.newPage();
      await page.setViewport(viewport);
      return page;
    },
    differ: (page) => ({
      goto: (to) => page.goto(to, { waitUntil: 'load', timeout: 120000 }),
      waitForFunction: (fn, arg, { timeout = 30000 } = {}) => page.waitForFunction(fn, { timeout, polling: 'raf' }, arg),
      screenshot: async () => Buffer.from(await page.screenshot({ type: 'png' })),
    }),
  });
}
