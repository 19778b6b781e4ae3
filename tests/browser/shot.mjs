// Developer tool: screenshots of the built page. Usage (with dist/ served at URL):
//   ATTENTION_DEMO_URL=http://127.0.0.1:PORT/ node tests/browser/shot.mjs "scene=clock&pos=44" out.png [w h]
import { launchBrowser, openDemo } from './harness.mjs';

const [query = '', out = 'shot.png', w = '1280', h = '800'] = process.argv.slice(2);
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) } });
await openDemo(page, query);
await page.screenshot({ path: out });
console.log(JSON.stringify(await page.evaluate(() => window.attentionDemo.state().notes)));
await browser.close();
