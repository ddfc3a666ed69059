// saml.mjs signs in to Bindery through a SAML identity provider in headless
// Chromium: Bindery's startURL sends the browser to the provider's login
// form (cmd/testidp, crewjam's samlidp), the provider posts its signed
// response to Bindery's ACS, and Bindery starts a session for the person.
//
// Environment:
//   BINDERY_URL   Bindery's public URL; BINDERY_ADDR the host:port it
//                 listens at, which Chromium maps the URL's host name to
//   START_URL     the SAML provider's service.startURL
//   IDP_URL       the identity provider's address; IDP_ADDR as BINDERY_ADDR
//   IDP_USER, IDP_PASSWORD, EMAIL   the person who signs in
//   SCREENSHOT    where to write a screenshot of the page Bindery shows after
//   CHROMIUM      the Chromium binary (default /usr/bin/chromium)
//
// Run by e2e/signin_test.go (TestSAMLSignInInBrowser).

import assert from 'node:assert/strict';
import { launch, mapHosts, profile, sessionEmail, steps } from './browser.mjs';

const env = process.env;
const missing = ['BINDERY_URL', 'START_URL', 'IDP_URL', 'IDP_USER', 'IDP_PASSWORD', 'EMAIL'].filter((n) => !env[n]);
if (missing.length > 0) {
  console.error(`saml.mjs: set ${missing.join(', ')}`);
  process.exit(2);
}
const bindery = new URL(env.BINDERY_URL).origin;
const idp = new URL(env.IDP_URL).origin;
mapHosts([[bindery, env.BINDERY_ADDR], [idp, env.IDP_ADDR]]);

const { step, finish, onExit } = steps('saml');
const browser = await launch(profile(), [bindery, idp]);
onExit(async () => browser.context.close());
const { page } = browser;
await page.setViewportSize({ width: 1280, height: 800 });

await step('the start URL leads to the identity provider', async () => {
  await page.goto(env.START_URL);
  await page.waitForURL((u) => u.origin === idp);
  await page.locator('input[name=user]').waitFor();
  return page.url().split('?')[0];
});

await step('signing in at the identity provider comes back signed in', async () => {
  await page.locator('input[name=user]').fill(env.IDP_USER);
  await page.locator('input[name=password]').fill(env.IDP_PASSWORD);
  await page.locator('input[type=submit]').click();
  // The provider's page posts the response to the ACS, which redirects.
  await page.waitForURL((u) => u.origin === bindery && !u.pathname.endsWith('/acs'))
    .catch(async (err) => {
      const notice = await page.locator('.notice').textContent().catch(() => '');
      throw new Error(`stayed at ${page.url()}: ${notice || err.message}`);
    });
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
  if (env.SCREENSHOT) await page.screenshot({ path: env.SCREENSHOT, fullPage: true });
  return page.url();
});

await step('the session is the person the provider vouched for', async () => {
  assert.equal(await sessionEmail(browser, bindery, env.BINDERY_ADDR), env.EMAIL);
  return `signed in as ${env.EMAIL}`;
});

await finish();
