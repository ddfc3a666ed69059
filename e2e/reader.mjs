// Reads Bindery's published sites in headless Chromium as their visitors do.
// A public site: its home page, the sidebar, a section tab and one in a
// group's menu, the site-space switcher, the header's search, the 404 page
// of an unknown address and of a section a condition hides, and the same
// site at 360 px wide behind its Menu toggle. A share-link site opened by
// its link. A visitor-auth site with adaptive content, without a token and
// with the tokens of two plans, of which only one shows a section. Every
// request goes to Bindery (or the sign-in page), no page has a script error
// or breaks its content security policy, and axe-core finds no violation on
// the home page, a page of every block, the search results and the 404
// page, in light and in dark.
//
// axe-core goes into the page by evaluation (page.evaluate of axe.min.js),
// which the page's content security policy does not govern: the CSP refuses
// page.addScriptTag's inline script, and the run checks that it does.
//
// Environment:
//   BINDERY_URL        base URL of a running server
//   READER_PUBLIC      the public site's address, ending in "/"
//   READER_SHARED      the share-link site's address, ending in "/"
//   READER_SHARE_KEY   the key of an active share link of it
//   READER_MEMBERS     the visitor-auth site's address, ending in "/"
//   READER_LOGIN       its fallback (sign-in) URL, on another origin
//   READER_TOKEN_PRO   a visitor token of it claiming plan "pro"
//   READER_TOKEN_FREE  one claiming plan "free"
//   SCREENSHOTS        a directory for the screenshots of a failed step
//                      (none are taken without it)
//   CHROMIUM           the Chromium binary (default /usr/bin/chromium)
//
// The sites are the ones e2e/reader_test.go makes (see readerSites there).
// Run by that test; by hand, with a server holding such sites:
//   BINDERY_URL=... READER_PUBLIC=... (and the rest) node e2e/reader.mjs

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, profile, steps } from './browser.mjs';

const env = process.env;
const names = ['BINDERY_URL', 'READER_PUBLIC', 'READER_SHARED', 'READER_SHARE_KEY', 'READER_MEMBERS', 'READER_LOGIN',
  'READER_TOKEN_PRO', 'READER_TOKEN_FREE'];
const missing = names.filter((n) => !env[n]);
if (missing.length > 0) {
  console.error(`reader: set ${missing.join(', ')}`);
  process.exit(2);
}
const origin = new URL(env.BINDERY_URL).origin;
const publicSite = env.READER_PUBLIC;
const sharedSite = env.READER_SHARED;
const membersSite = env.READER_MEMBERS;
const login = env.READER_LOGIN;
const shots = env.SCREENSHOTS;
const axeSource = readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

const { step, finish, onExit } = steps('reader');
const browser = await launch(profile(), [origin, login]);
onExit(async () => browser.context.close());
const { page } = browser;
const desktop = { width: 1280, height: 800 };
await page.setViewportSize(desktop);

// Chromium logs a console error for every response with status 404, the
// documents the run asks for on purpose included: those, and only those,
// are not script errors.
const notFoundLog = 'console: Failed to load resource: the server responded with a status of 404 (Not Found)';
const expectedNotFound = new Set();
let expectedNotFoundLogs = 0;
page.on('console', (msg) => {
  if (`console: ${msg.text()}` === notFoundLog && expectedNotFound.has(msg.location().url)) expectedNotFoundLogs++;
});

function assertClean() {
  for (; expectedNotFoundLogs > 0; expectedNotFoundLogs--) {
    const i = browser.errors.indexOf(notFoundLog);
    if (i < 0) break;
    browser.errors.splice(i, 1);
  }
  assert.deepEqual(browser.foreign, [], 'every request goes to Bindery or the sign-in page');
  assert.deepEqual(browser.errors, [], 'no script error and no CSP violation');
}

// check is a step that also requires a clean page, and that keeps a
// screenshot and the HTML of the page it failed on.
let failures = 0;
async function check(name, fn) {
  await step(name, async () => {
    try {
      const detail = await fn();
      assertClean();
      return detail;
    } catch (err) {
      if (shots) {
        failures++;
        const base = join(shots, `${String(failures).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`);
        await page.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => {});
        writeFileSync(`${base}.html`, await page.content().catch(() => ''));
        console.log(`  screenshot of ${page.url()}: ${base}.png`);
      }
      throw err;
    }
  });
}

// visit opens a URL and returns its response, whose status must be want.
async function visit(url, want = 200) {
  if (want === 404) expectedNotFound.add(url);
  const res = await page.goto(url);
  assert.equal(res.status(), want, `${url} answers ${want}`);
  return res;
}

// follow clicks a locator and waits for the address it leads to.
async function follow(locator, url) {
  await Promise.all([page.waitForURL(url), locator.click()]);
  assert.equal(page.url(), url);
}

const heading = () => page.locator('main h1').innerText();
const sidebar = page.locator('nav.sidebar');
const tabs = page.locator('nav.tabs');

// ---- The public site.

await check('the home page of a public site', async () => {
  const res = await visit(publicSite);
  const csp = res.headers()['content-security-policy'];
  assert.match(csp, /script-src 'self';/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal(await page.title(), 'Acme Docs');
  assert.equal(await heading(), '👋 Welcome');
  // reader.js ran: the code block has its copy button.
  await page.locator('.code .copy').first().waitFor({ state: 'attached' });
  return `${browser.requests.length} requests, all to ${origin}`;
});

await check('the CSP refuses an inline script', async () => {
  await assert.rejects(page.addScriptTag({ content: 'window.inlineRan = true;' }), /Content Security Policy/);
  assert.equal(await page.evaluate(() => window.inlineRan), undefined);
  // The page reports the violation event after the console's message:
  // both are in before they are set aside.
  for (let i = 0; i < 40 && !browser.errors.some((e) => /CSP violation/.test(e)); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const refused = browser.errors.filter((e) => /inline/.test(e));
  assert.ok(refused.length > 0, 'Chromium reports the refusal');
  browser.errors.splice(0, browser.errors.length, ...browser.errors.filter((e) => !/inline/.test(e)));
  return refused[0];
});

await check('the sidebar leads to a page and to pages under it', async () => {
  await follow(sidebar.getByRole('link', { name: 'Install', exact: true }), `${publicSite}install`);
  assert.equal(await heading(), 'Install');
  assert.equal(await sidebar.getByRole('link', { name: 'Install', exact: true }).getAttribute('aria-current'), 'page');
  await follow(sidebar.getByRole('link', { name: 'Linux' }), `${publicSite}install/linux`);
  await page.getByText('On Linux, run the installer.').waitFor();
  assert.deepEqual(await page.locator('nav.breadcrumbs li').allInnerTexts(), ['Guides', 'Install']);
  await follow(sidebar.getByRole('link', { name: 'Tuning' }), `${publicSite}advanced/tuning`);
  await page.getByText('Tune the quokka cache.').waitFor();
  return 'Install, Linux, Advanced › Tuning';
});

await check('a section tab inside a group menu, and a plain one', async () => {
  const menu = tabs.locator('details', { has: page.locator('summary', { hasText: 'Reference' }) });
  assert.equal(await menu.getAttribute('open'), null);
  await menu.locator('summary').click();
  await follow(menu.getByRole('link', { name: 'CLI reference' }), `${publicSite}cli/`);
  await page.getByText('The CLI has a serve command.').waitFor();
  const current = tabs.locator('details.current');
  assert.equal(await current.locator('summary').innerText(), 'Reference');
  // The menu is closed again, its links out of the accessibility tree.
  assert.equal(await current.locator('a', { hasText: 'CLI reference' }).getAttribute('aria-current'), 'true');
  await follow(tabs.getByRole('link', { name: 'Guides' }), publicSite);
  assert.equal(await heading(), '👋 Welcome');
  return `tabs: ${(await tabs.locator(':scope > ul > li > a, summary').allInnerTexts()).join(', ')}`;
});

await check('the site-space switcher', async () => {
  const switcher = sidebar.locator('details.variants');
  const shown = async () => (await switcher.locator('summary').textContent()).trim();
  assert.equal(await shown(), 'Variant: Guide');
  await switcher.locator('summary').click();
  await follow(switcher.getByRole('link', { name: 'Guide v1' }), `${publicSite}v1/`);
  await page.getByText('The first version.').waitFor();
  assert.equal(await shown(), 'Variant: Guide v1');
  await switcher.locator('summary').click();
  await follow(switcher.getByRole('link', { name: 'Guide', exact: true }), publicSite);
  return 'Guide → Guide v1 → Guide';
});

await check('search from the header, then open a result', async () => {
  await page.locator('header form[role=search] input[type=search]').fill('quokka');
  await Promise.all([page.waitForURL(`${publicSite}search?q=quokka`), page.keyboard.press('Enter')]);
  assert.equal(await heading(), 'Search');
  const results = page.locator('ol.results > li');
  const titles = await results.locator('h2').allInnerTexts();
  assert.ok(titles.includes('Tuning'), `Tuning is found: ${titles}`);
  assert.ok(titles.includes('Overview'), `the API's Overview is found: ${titles}`);
  assert.ok((await page.locator('ol.results mark').allInnerTexts()).every((m) => m.toLowerCase() === 'quokka'));
  await follow(results.getByRole('link', { name: 'Tuning' }), `${publicSite}advanced/tuning`);
  await page.getByText('Tune the quokka cache.').waitFor();
  return titles.join(', ');
});

await check('the 404 page of an unknown address, and its search box', async () => {
  await visit(`${publicSite}no/such/page`, 404);
  assert.equal(await heading(), 'Page not found');
  await page.locator('main input[type=search]').fill('installer');
  await Promise.all([page.waitForURL(`${publicSite}search?q=installer`), page.locator('main button[type=submit]').click()]);
  await follow(page.locator('ol.results').getByRole('link', { name: /^Linux/ }), `${publicSite}install/linux#setup`);
  return 'found Linux from the 404 page';
});

await check('a section hidden by its condition is a 404 and is not searched', async () => {
  await visit(publicSite);
  assert.ok(!(await page.locator('header').innerText()).includes('Pro features'), 'no tab for the hidden section');
  await visit(`${publicSite}pro/`, 404);
  assert.equal(await heading(), 'Page not found');
  await visit(`${publicSite}search?q=readers`);
  assert.equal(await page.locator('main .count').innerText(), 'No results for “readers”.');
  return `${publicSite}pro/ is not found`;
});

await check('at 360 px the sidebar folds behind the Menu toggle', async () => {
  await page.setViewportSize({ width: 360, height: 740 });
  await visit(publicSite);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.equal(overflow, 0, 'nothing is wider than the screen');
  assert.equal(await sidebar.isVisible(), false, 'the sidebar is folded');
  const menu = page.locator('label.menu-button');
  assert.equal(await menu.innerText(), 'Menu');
  await menu.click();
  assert.equal(await page.locator('#menu').isChecked(), true);
  await sidebar.waitFor({ state: 'visible' });
  await follow(sidebar.getByRole('link', { name: 'Install', exact: true }), `${publicSite}install`);
  assert.equal(await heading(), 'Install');
  assert.equal(await sidebar.isVisible(), false, 'a new page starts folded');
  await page.setViewportSize(desktop);
  return 'Menu → Install';
});

// ---- The share-link site.

await check('a share-link site is a 404 without its key or with a wrong one', async () => {
  await visit(sharedSite, 404);
  await visit(`${sharedSite}?shareKey=not-the-key`, 404);
  assert.deepEqual(await browser.context.cookies(sharedSite), []);
  return 'no key, wrong key: 404';
});

await check('a share link admits its holder, and the address loses the key', async () => {
  await visit(`${sharedSite}?shareKey=${encodeURIComponent(env.READER_SHARE_KEY)}`);
  assert.equal(page.url(), sharedSite, 'the address bar has no shareKey');
  assert.equal(await page.title(), 'Partner Docs');
  assert.equal(await heading(), '👋 Welcome');
  const [kept] = await browser.context.cookies(sharedSite);
  assert.equal(kept?.name, 'bindery-share-key');
  assert.equal(kept.httpOnly, true);
  assert.equal(kept.path, new URL(sharedSite).pathname, 'the cookie is the site’s alone');
  const again = await page.reload();
  assert.equal(again.status(), 200);
  assert.equal(await heading(), '👋 Welcome');
  await follow(sidebar.getByRole('link', { name: 'Install', exact: true }), `${sharedSite}install`);
  return `${page.url()} after a reload`;
});

// ---- The visitor-auth site with adaptive content.

await check('without a token, the visitor-auth site sends the visitor to sign in', async () => {
  await page.goto(`${membersSite}install`);
  const at = new URL(page.url());
  assert.equal(`${at.origin}${at.pathname}`, login);
  assert.ok(at.searchParams.get('location').endsWith(`${new URL(membersSite).pathname}install`), at.href);
  await page.getByRole('heading', { name: 'Sign in to Acme' }).waitFor();
  return at.href;
});

await check('a token of the free plan: no Enterprise section', async () => {
  await visit(`${membersSite}?jwt_token=${env.READER_TOKEN_FREE}`);
  assert.equal(page.url(), membersSite, 'the address bar has no jwt_token');
  assert.equal(await page.title(), 'Member Docs');
  assert.equal(await tabs.count(), 0, 'one section: no tabs');
  assert.ok(!(await page.locator('body').innerText()).includes('Enterprise'));
  await visit(`${membersSite}enterprise/`, 404);
  assert.equal(await heading(), 'Page not found');
  return `${membersSite}enterprise/ is not found`;
});

await check('a token of the pro plan shows the Enterprise section', async () => {
  await visit(`${membersSite}?jwt_token=${env.READER_TOKEN_PRO}`);
  assert.equal(page.url(), membersSite, 'the address bar has no jwt_token');
  await follow(tabs.getByRole('link', { name: 'Enterprise' }), `${membersSite}enterprise/`);
  assert.equal(await heading(), 'Single sign-on');
  const again = await page.reload();
  assert.equal(again.status(), 200);
  const [kept] = await browser.context.cookies(membersSite);
  assert.equal(kept?.name, 'bindery-visitor-token');
  assert.equal(kept.httpOnly, true);
  return `tabs: ${(await tabs.getByRole('link').allInnerTexts()).join(', ')}`;
});

// ---- Accessibility.

await check('a page holds every block the markdown makes', async () => {
  await visit(`${publicSite}every-block`);
  const content = page.locator('main .content');
  const count = (sel) => content.locator(sel).count();
  const pageLink = `a[href="${new URL(publicSite).pathname}install"]`;
  for (const sel of ['h2', 'h3', 'h4', 'strong', 'em', 's, del', ':not(pre) > code', pageLink, 'a[href^="https:"]',
    'ul ul', 'ol ol', 'ul.tasks', 'blockquote', 'hr', '.code[data-lang=go]', '.code[data-lang=python]', 'table', 'img']) {
    assert.ok((await count(sel)) > 0, `the page has ${sel}`);
  }
  const img = content.locator('img');
  await img.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('main .content img')?.naturalWidth > 0);
  return `image ${await img.getAttribute('src')}`;
});

// axe runs axe-core on the page at url in a colour scheme and fails on any
// violation. skip names rules not checked there, each with the reader bug
// that fails it: remove the entry once the bug is fixed.
async function axe(url, want, colorScheme, skip = {}) {
  await page.emulateMedia({ colorScheme });
  await visit(url, want);
  await page.locator('main img').evaluateAll((imgs) => Promise.all(imgs.map((i) => i.decode().catch(() => {}))));
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(`${axeSource}\n;void 0`);
  const rules = Object.fromEntries(Object.keys(skip).map((id) => [id, { enabled: false }]));
  const out = await page.evaluate(async (rules) => {
    const r = await window.axe.run(document, { rules });
    return {
      version: r.testEngine.version,
      passes: r.passes.length,
      incomplete: r.incomplete.map((v) => v.id),
      violations: r.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`),
      })),
    };
  }, rules);
  assert.deepEqual(out.violations, [], `axe-core ${out.version} finds no violation`);
  for (const [id, bug] of Object.entries(skip)) console.log(`  skipped the rule ${id} here: ${bug}`);
  const review = out.incomplete.length ? `, to review: ${out.incomplete.join(' ')}` : '';
  return `axe-core ${out.version}: 0 violations, ${out.passes} rules passed${review}`;
}

const audited = [
  ['the home page', publicSite, 200],
  ['the page of every block', `${publicSite}every-block`, 200],
  ['the search results', `${publicSite}search?q=quokka`, 200],
  ['the 404 page', `${publicSite}no/such/page`, 404],
];
for (const colorScheme of ['light', 'dark']) {
  for (const [name, url, want, skip] of audited) {
    await check(`axe: ${name}, ${colorScheme}`, () => axe(url, want, colorScheme, skip));
  }
}
await page.emulateMedia({ colorScheme: null });

await finish();
