// Signs in to Bindery with an email link in headless Chromium, as a person
// would, and checks every page on the way with axe-core: the sign-in page
// (and its answer to a bad address), "check your email", the link's page,
// and signing out. No page runs a script or breaks its content security
// policy.
//
// Environment:
//   BINDERY_URL   base URL of a running server
//   EMAIL         an address that may sign in
//   LINK          a sign-in link for EMAIL (the test makes it: mail does
//                 not reach a browser test)
//   APP_PAGES     addresses of app views to check once signed in,
//                 space-separated
//   SCREENSHOTS   a directory for the pages' screenshots (optional)
//   CHROMIUM      the Chromium binary (default /usr/bin/chromium)
//
// Run by e2e/signin_test.go (TestEmailSignInInBrowser).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { axe, launch, profile, steps } from './browser.mjs';

const { BINDERY_URL: base, EMAIL: email, LINK: link, APP_PAGES: appPages = '', SCREENSHOTS: shots } = process.env;
if (!base || !email || !link) {
  console.error('signin: set BINDERY_URL, EMAIL and LINK');
  process.exit(2);
}
const origin = new URL(base).origin;
const { step, finish, onExit } = steps('signin');
const browser = await launch(profile(), [origin]);
onExit(async () => browser.context.close());
const { page } = browser;

// signedIn asks the server whether the browser's cookies sign it in (the
// pages' policy allows no fetch of their own).
async function signedIn() {
  return (await page.context().request.get(`${origin}/auth/session`)).json();
}

// look takes the page's screenshot and runs axe on it.
async function look(name) {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const line = await axe(page);
  assert.deepEqual(browser.errors, [], 'no script error and no CSP violation');
  return line;
}

await step('the sign-in page', async () => {
  const res = await page.goto(`${origin}/auth/sign-in?return_to=${encodeURIComponent('/playground')}`);
  assert.equal(res.status(), 200);
  return look('sign-in');
});

await step('a bad address is answered on the page', async () => {
  await page.getByLabel('Email address').fill('x@y');
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('alert').waitFor();
  // The page's own status, 400, is the one error the console shows.
  assert.deepEqual(browser.errors.splice(0), ['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  return look('sign-in-refused');
});

await step('asking for a link', async () => {
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  return look('check-email');
});

await step("the link's page signs in only when asked", async () => {
  await page.goto(link);
  const session = await signedIn();
  assert.equal(session.signedIn, false, 'opening the link signs nobody in');
  return look('confirm');
});

await step('signing in', async () => {
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}/playground`);
  const session = await signedIn();
  assert.equal(session.signedIn, true);
  return `signed in as ${session.user.displayName}`;
});

for (const path of appPages.split(' ').filter(Boolean)) {
  await step(`the app's view ${path}`, async () => {
    const res = await page.goto(`${origin}${path}`);
    assert.equal(res.status(), 200);
    return look(`app${path.replaceAll('/', '_')}`);
  });
}

await step('signing out', async () => {
  await page.goto(`${origin}/auth/sign-out`);
  const line = await look('sign-out');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByText('You are signed out.').waitFor();
  const session = await signedIn();
  assert.equal(session.signedIn, false);
  return `${line}; signed out: ${await look('signed-out')}`;
});

await finish();
