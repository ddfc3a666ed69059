// Runs Lighthouse on pages of a published site in headless Chromium and
// prints each page's scores for performance, accessibility, best practices
// and SEO, with the audits that cost points. Exits 1 when a category of a
// page scores under 95 (MIN_SCORE), 2 on wrong use.
//
// Lighthouse's defaults apply: a mobile device, with simulated throttling
// of the network and the CPU. The scores, performance's above all, depend
// on the machine; `make lighthouse` runs this on the demo site, apart from
// `make test`.
//
// Environment:
//   CHROMIUM   the Chromium binary (default /usr/bin/chromium)
//   MIN_SCORE  the lowest passing score, 0 to 100 (default 95)
//
// Usage: node e2e/lighthouse.mjs URL [URL...]

// chrome-launcher is Lighthouse's own launcher (a dependency of the pinned
// lighthouse, at the version package-lock.json records).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumArgs } from './browser.mjs';

const urls = process.argv.slice(2);
if (urls.length === 0 || urls.some((u) => !/^https?:\/\//.test(u))) {
  console.error('usage: node e2e/lighthouse.mjs URL [URL...]');
  process.exit(2);
}
const minScore = Number(process.env.MIN_SCORE ?? 95);
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM || '/usr/bin/chromium',
  chromeFlags: ['--headless=new', ...chromiumArgs],
  logLevel: 'error',
});

let failed = false;
try {
  for (const url of urls) {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories });
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    console.log(`${lhr.finalDisplayedUrl} (Lighthouse ${lhr.lighthouseVersion}, ${lhr.configSettings.formFactor})`);
    for (const id of categories) {
      const cat = lhr.categories[id];
      const score = Math.round(cat.score * 100);
      const low = score < minScore;
      failed ||= low;
      console.log(`  ${low ? 'FAIL' : 'ok  '} ${cat.title.padEnd(15)} ${String(score).padStart(3)}`);
      // The audits that cost points: weighted ones scored under 1.
      for (const ref of cat.auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
        const value = audit.displayValue ? ` (${audit.displayValue})` : '';
        console.log(`         - ${ref.id}: ${audit.title}${value}, score ${audit.score}`);
        for (const item of audit.details?.items?.slice(0, 5) ?? []) {
          const what = [item.node?.selector, item.sourceLocation?.url ?? item.source?.url ?? item.url, item.description]
            .filter(Boolean).join(': ') || JSON.stringify(item);
          console.log(`             ${String(what).slice(0, 160)}`);
        }
      }
    }
  }
} finally {
  await chrome.kill();
}
if (failed) {
  console.error(`lighthouse: a category scored under ${minScore}`);
  process.exit(1);
}
console.log(`\nlighthouse: every category of ${urls.length} page(s) scored ${minScore} or more`);
