// The driver's Firefox adapter: Debian's Firefox ESR through puppeteer-core over WebDriver BiDi, headful
// (headless Firefox has no WebGL 2 here) on the display it is given, with Mesa's software GL.
import puppeteer from 'puppeteer-core';

export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';

export async function launchEngine(viewport) {
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: FIREFOX, headless: false, defaultViewport: viewport,
    env: { ...process.env, LIBGL_ALWAYS_SOFTWARE: '1' },
    protocolTimeout: 600000,
  });
  return {
    name: 'firefox',
    version: await browser.version(),
    async open(url) {
      const page = await browser.newPage();
      await page.setViewport(viewport);
      const driven = {
        goto: (to) => page.goto(to, { waitUntil: 'load', timeout: 120000 }),
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        waitForFunction: (fn, arg, { timeout = 30000 } = {}) => page.waitForFunction(fn, { timeout, polling: 'raf' }, arg),
        screenshot: async () => Buffer.from(await page.screenshot({ type: 'png' })),
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
