// What the browser checks share: headless Chromium driven by playwright-core,
// a guard that fails the run on any request to a host not under test, the
// page's errors, and a step runner.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

// Chromium's flags. The background-networking ones turn off its own
// connections (updates, sync, safe browsing), which a closed network refuses
// and which have no place in a test. Playwright adds --headless itself.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * profile returns a fresh Chromium user-data directory, removed at exit.
 * Two launches on one profile are a restarted browser: what it remembers
 * (localStorage) survives, memory does not.
 */
export function profile() {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-chromium-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * launch starts Chromium on the user-data directory dir and returns its
 * page. Every request must go to one of origins: any other is recorded in
 * `foreign` and, when intercept is set, aborted. Console errors, uncaught
 * exceptions and content security policy violations are recorded in
 * `errors`.
 *
 * Interception is off for cross-origin checks: while it is on, Playwright
 * answers CORS preflights itself, permissively, so the server's answer
 * would never be tested.
 */
export async function launch(dir, origins, { intercept = true } = {}) {
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  const context = await chromium.launchPersistentContext(dir, {
    executablePath,
    headless: true,
    args: chromiumArgs,
    timeout: 60_000,
  });
  const allowed = new Set(origins.map((o) => new URL(o).origin));
  const foreign = [];
  const errors = [];
  const requests = [];
  const record = (request) => {
    const url = request.url();
    requests.push(`${request.method()} ${url}`);
    const ok = url.startsWith('data:') || allowed.has(new URL(url).origin);
    if (!ok) foreign.push(url);
    return ok;
  };
  if (intercept) {
    await context.route('**/*', (route) => (record(route.request()) ? route.continue() : route.abort('blockedbyclient')));
  } else {
    context.on('request', record);
  }
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline code'}`);
    });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(20_000);
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  return { context, page, foreign, errors, requests };
}

/**
 * steps returns a runner of dependent steps: each prints one line, and the
 * first failure prints why and ends the run with exit status 1 after
 * cleanup() (closing the browser).
 */
export function steps(script) {
  let count = 0;
  let cleanup = async () => {};
  return {
    onExit(fn) {
      cleanup = fn;
    },
    async step(name, fn) {
      count++;
      try {
        const detail = await fn();
        console.log(`ok   ${name}${detail ? ` -> ${detail}` : ''}`);
      } catch (err) {
        console.log(`FAIL ${name}`);
        console.log(`  ${err?.stack ?? err}`);
        await cleanup().catch(() => {});
        process.exit(1);
      }
    },
    async finish() {
      await cleanup();
      console.log(`\n${script}: ${count} steps passed`);
    },
  };
}

const axeSource = readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/**
 * axe runs axe-core on the page as it is and fails on any violation,
 * listing each with the elements it found; it returns a line for the log.
 */
export async function axe(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(`${axeSource}\n;void 0`);
  const out = await page.evaluate(async () => {
    const r = await window.axe.run(document);
    return {
      version: r.testEngine.version,
      passes: r.passes.length,
      violations: r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`),
      })),
    };
  });
  assert.deepEqual(out.violations, [], `axe-core ${out.version} finds no violation`);
  return `axe-core ${out.version}: 0 violations, ${out.passes} rules passed`;
}

/**
 * mapHosts makes Chromium reach each URL's host name at the host:port given
 * for it (none: the URL's own), so that servers on loopback can be reached
 * under the public URLs they are configured with.
 */
export function mapHosts(pairs) {
  const rules = pairs.filter(([, addr]) => addr).map(([url, addr]) => `MAP ${new URL(url).hostname} ${addr}`);
  if (rules.length > 0) chromiumArgs.push(`--host-resolver-rules=${rules.join(', ')}`);
}

/**
 * sessionEmail asks Bindery whom the browser's session cookie signs in,
 * from Node (Bindery's pages may fetch nothing), at addr when its public
 * URL's host name resolves elsewhere. Fails when there is no session.
 */
export async function sessionEmail(browser, bindery, addr) {
  const session = (await browser.context.cookies(bindery)).find((c) => c.name === 'bindery_session');
  assert.ok(session, 'the browser has a session cookie');
  const res = await fetch(`${addr ? `http://${addr}` : bindery}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: `${session.name}=${session.value}` },
    body: JSON.stringify({ query: '{ viewer { email } }' }),
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data?.viewer?.email;
}
