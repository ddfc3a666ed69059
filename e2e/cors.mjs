// Calls Bindery from pages on other origins in headless Chromium, as a
// front-end served elsewhere would: a page on an origin of
// BINDERY_CORS_ORIGINS reads /graphql and creates a space through /v1
// (both preflighted, since they send a token), and the browser refuses the
// same calls from a page on an origin not listed, without sending them.
//
// Environment:
//   BINDERY_URL     base URL of a running server whose BINDERY_CORS_ORIGINS
//                   lists ALLOWED_ORIGIN only
//   BINDERY_TOKEN   an API token of an admin of BINDERY_ORG
//   BINDERY_ORG     an organization; the allowed page creates a space in it
//   ALLOWED_ORIGIN  a server of a blank page, on an allowed origin
//   REFUSED_ORIGIN  another, on an origin that is not allowed
//   CHROMIUM        the Chromium binary (default /usr/bin/chromium)
//
// Run by e2e/browser_test.go, which then checks that only the allowed page's
// space exists.

import assert from 'node:assert/strict';
import { launch, profile, steps } from './browser.mjs';

const env = process.env;
const { BINDERY_URL: base, BINDERY_TOKEN: token, BINDERY_ORG: org, ALLOWED_ORIGIN: allowed, REFUSED_ORIGIN: refused } = env;
if (!base || !token || !org || !allowed || !refused) {
  console.error('cors: set BINDERY_URL, BINDERY_TOKEN, BINDERY_ORG, ALLOWED_ORIGIN and REFUSED_ORIGIN');
  process.exit(2);
}
const bindery = new URL(base).origin;

const browser = await launch(profile(), [bindery, allowed, refused], { intercept: false });
const { page } = browser;
const { step, finish, onExit } = steps('cors');
onExit(async () => browser.context.close());

// call runs fetch in the page, so the browser applies CORS to it; it
// returns what a script of the page can see, or the error it gets.
function call(path, init) {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const res = await fetch(url, init);
        return {
          status: res.status,
          body: await res.json(),
          requestId: res.headers.get('X-Request-Id'),
          location: res.headers.get('Location'),
        };
      } catch (err) {
        return { error: `${err.name}: ${err.message}` };
      }
    },
    { url: `${bindery}${path}`, init },
  );
}

const graphql = {
  method: 'POST',
  headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ query: '{ viewer { displayName } }' }),
};
const createSpace = (title) => ({
  method: 'POST',
  headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ title }),
});

await step(`a page on ${allowed} reads /graphql`, async () => {
  await page.goto(`${allowed}/`);
  const res = await call('/graphql', graphql);
  assert.equal(res.error, undefined);
  assert.equal(res.status, 200);
  assert.equal(typeof res.body.data.viewer.displayName, 'string');
  assert.match(res.requestId ?? '', /^[0-9a-f]{24}$/, 'X-Request-Id is exposed');
  return JSON.stringify(res.body);
});

await step(`a page on ${allowed} creates a space through /v1`, async () => {
  const res = await call(`/v1/orgs/${org}/spaces`, createSpace('Made on the allowed origin'));
  assert.equal(res.error, undefined);
  assert.equal(res.status, 201);
  assert.equal(res.body.title, 'Made on the allowed origin');
  assert.ok(res.location, 'Location is exposed');
  return `${res.status} ${res.body.id}`;
});

await step(`a page on ${allowed} reads a 401 with its message`, async () => {
  const res = await call('/graphql', { ...graphql, headers: { ...graphql.headers, Authorization: 'Bearer nope' } });
  assert.equal(res.status, 401);
  assert.ok(res.body.errors[0].message);
  // Chromium logs every failed load; that one is expected.
  assert.deepEqual(browser.errors, [
    'console: Failed to load resource: the server responded with a status of 401 (Unauthorized)',
  ]);
  browser.errors.length = 0;
  return res.body.errors[0].message;
});

await step(`the browser refuses the same calls from ${refused}`, async () => {
  assert.deepEqual(browser.errors, []);
  await page.goto(`${refused}/`);
  const read = await call('/graphql', graphql);
  assert.equal(read.error, 'TypeError: Failed to fetch');
  const write = await call(`/v1/orgs/${org}/spaces`, createSpace('Made on the refused origin'));
  assert.equal(write.error, 'TypeError: Failed to fetch');
  const blocked = browser.errors.filter((e) =>
    e.includes("blocked by CORS policy: Response to preflight request doesn't pass access control check"),
  );
  assert.equal(blocked.length, 2, browser.errors.join('\n'));
  return blocked[0];
});

await step('every request went to the servers under test', async () => {
  assert.deepEqual(browser.foreign, []);
  return `${browser.requests.length} requests`;
});

await finish();
