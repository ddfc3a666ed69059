// Drives Bindery's GraphQL playground in headless Chromium as a user would:
// the page renders from Bindery alone (every request goes to its origin, no
// script error, no content security policy violation), takes a token, loads
// the schema for the docs pane and autocompletion, runs the README's GraphQL
// example and shows the data, and shows a subscription's events as they
// happen. The token is not stored unless "Remember on
// this browser" is ticked, which a restarted browser then shows.
//
// Environment:
//   BINDERY_URL        base URL of a running server
//   BINDERY_TOKEN      an API token of an admin of the organization
//   BINDERY_SESSION    the secret of a browser session of the same admin
//   BINDERY_ORG_TITLE  the title of the organization's (only) organization
//   BINDERY_SPACE      the title of a space in it
//   CHROMIUM           the Chromium binary (default /usr/bin/chromium)
//
// Run by e2e/browser_test.go; by hand:
//   BINDERY_URL=... BINDERY_TOKEN=... BINDERY_ORG_TITLE=... BINDERY_SPACE=... node e2e/playground.mjs

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, profile, steps } from './browser.mjs';

const {
  BINDERY_URL: base,
  BINDERY_TOKEN: token,
  BINDERY_SESSION: session,
  BINDERY_ORG_TITLE: orgTitle,
  BINDERY_SPACE: spaceTitle,
} = process.env;
if (!base || !token || !session || !orgTitle || !spaceTitle) {
  console.error('playground: set BINDERY_URL, BINDERY_TOKEN, BINDERY_SESSION, BINDERY_ORG_TITLE and BINDERY_SPACE');
  process.exit(2);
}
const origin = new URL(base).origin;
const playground = `${origin}/playground`;

// The README's GraphQL example: the query of its curl command.
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = readme.match(/-d '(\{"query":.*\})'/);
assert.ok(example, 'the README has a GraphQL example sent with curl -d');
const readmeQuery = JSON.parse(example[1]).query;

const dir = profile();
let browser;
const { step, finish, onExit } = steps('playground');
onExit(async () => browser?.context.close());

async function open() {
  browser = await launch(dir, [origin]);
  return browser.page;
}

// The content of GraphiQL's editor (CodeMirror 5) in the pane.
const editor = (page, pane) =>
  page.evaluate((sel) => document.querySelector(`${sel} .CodeMirror`).CodeMirror.getValue(), pane);

const isIntrospection = (res) =>
  res.url() === `${origin}/graphql` && (res.request().postData() ?? '').includes('__schema');

async function storedValues(page) {
  return page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((s) => Object.keys(s).map((k) => [k, s.getItem(k)])),
  );
}

async function assertClean() {
  assert.deepEqual(browser.foreign, [], 'every request goes to Bindery');
  assert.deepEqual(browser.errors, [], 'no script error and no CSP violation');
}

let page = await open();

await step('the page comes with its content security policy', async () => {
  const res = await page.goto(playground);
  assert.equal(res.status(), 200);
  const headers = res.headers();
  assert.match(headers['content-security-policy'], /script-src 'self';/);
  assert.match(headers['content-security-policy'], /connect-src 'self';/);
  assert.equal(headers['x-content-type-options'], 'nosniff');
  return headers['content-security-policy'];
});

await step('GraphiQL renders from the embedded assets', async () => {
  await page.locator('.graphiql-container').waitFor();
  assert.equal(await page.evaluate(() => typeof GraphiQL), 'function');
  await page.getByText('Enter an API token above').first().waitFor();
  assert.equal(await page.textContent('#token-status'), 'No token yet: the schema loads once one is set.');
  assert.ok(await page.isVisible('#sign-in'), 'a browser without a session is offered to sign in');
  assert.equal(await page.getAttribute('#sign-in a', 'href'), '/auth/sign-in?return_to=%2Fplayground');
  await assertClean();
  return `${browser.requests.length} requests, all to ${origin}`;
});

await step('a token loads the schema', async () => {
  await page.fill('#token', token);
  const introspection = page.waitForResponse(isIntrospection);
  await page.click('button[type=submit]');
  const res = await introspection;
  assert.equal(res.status(), 200);
  assert.equal(res.request().headers().authorization, `Bearer ${token}`);
  const body = await res.json();
  assert.ok(body.data.__schema.types.length > 50, 'the schema has its types');
  await page.locator('#token-status', { hasText: 'Signed in as' }).waitFor();
  return await page.textContent('#token-status');
});

await step('the docs pane shows the schema', async () => {
  await page.click('button[aria-label="Show Documentation Explorer"]');
  const docs = page.locator('.graphiql-doc-explorer');
  await docs.getByRole('link', { name: 'Query', exact: true }).click();
  await docs.getByText('viewer', { exact: true }).first().waitFor();
  return 'Query has viewer';
});

await step('autocompletion offers the schema fields', async () => {
  await page.evaluate(() => {
    const cm = document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror;
    cm.setValue('{\n  \n}');
    cm.setCursor({ line: 1, ch: 2 });
    cm.focus();
  });
  await page.keyboard.type('vie');
  const hint = page.locator('.CodeMirror-hints li', { hasText: 'viewer' });
  await hint.first().waitFor();
  await page.keyboard.press('Escape');
  return (await page.locator('.CodeMirror-hints li').allTextContents()).join(', ') || 'viewer';
});

await step("the README's query runs and shows data", async () => {
  await page.click('.graphiql-query-editor .CodeMirror');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(readmeQuery);
  assert.equal(await editor(page, '.graphiql-query-editor'), readmeQuery);
  const answered = page.waitForResponse((res) => res.url() === `${origin}/graphql` && !isIntrospection(res));
  await page.click('.graphiql-execute-button');
  assert.equal((await answered).status(), 200);
  await page.locator('.graphiql-response', { hasText: spaceTitle }).waitFor();
  const result = JSON.parse(await editor(page, '.graphiql-response'));
  assert.equal(result.errors, undefined);
  const [org] = result.data.viewer.organizations.nodes;
  assert.equal(org.title, orgTitle);
  const space = org.spaces.nodes.find((s) => s.title === spaceTitle);
  assert.ok(space, `the space ${spaceTitle} is listed`);
  assert.equal(space.permissions.edit, true);
  return `${org.title}: ${org.spaces.totalCount} spaces`;
});

await step('a subscription shows events as they happen', async () => {
  const gql = async (query) => {
    const res = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await res.json()).data;
  };
  const data = await gql('{ viewer { organizations(first: 1) { nodes { spaces(first: 100) { nodes { id title } } } } } }');
  const space = data.viewer.organizations.nodes[0].spaces.nodes.find((s) => s.title === spaceTitle);
  const subscription = `subscription { changeRequestEvents(spaceId: "${space.id}") { type changeRequest { subject } } }`;
  await page.click('.graphiql-query-editor .CodeMirror');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(subscription);
  await page.click('.graphiql-execute-button');
  // Until the server has the subscription, a change request's event is
  // not for it: open one every half second until one shows.
  const shown = page.locator('.graphiql-response', { hasText: 'CHANGE_REQUEST_CREATED' }).waitFor({ timeout: 20000 });
  let opened = 0;
  const timer = setInterval(() => {
    opened += 1;
    fetch(`${origin}/v1/spaces/${space.id}/change-requests`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ subject: `Live ${opened}` }),
    }).catch(() => {});
  }, 500);
  try {
    await shown;
  } finally {
    clearInterval(timer);
  }
  const result = JSON.parse(await editor(page, '.graphiql-response'));
  assert.equal(result.data.changeRequestEvents.type, 'CHANGE_REQUEST_CREATED');
  assert.match(result.data.changeRequestEvents.changeRequest.subject, /^Live \d+$/);
  // The execute button stops a running subscription.
  await page.click('.graphiql-execute-button');
  // The editor keeps the README's query for the steps that follow.
  await page.click('.graphiql-query-editor .CodeMirror');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(readmeQuery);
  await page.waitForFunction((q) => {
    try {
      const tabs = JSON.parse(localStorage.getItem('graphiql:tabState'));
      return tabs.tabs[tabs.activeTabIndex].query === q;
    } catch {
      return false;
    }
  }, readmeQuery);
  return result.data.changeRequestEvents.changeRequest.subject;
});

await step('the token is kept in memory only', async () => {
  const stored = await storedValues(page);
  assert.ok(stored.length > 0, 'GraphiQL stores the editors');
  for (const [key, value] of stored) assert.ok(!value.includes(token), `${key} holds the token`);
  assert.deepEqual(await page.context().cookies(), []);
  await assertClean();
  return stored.map(([k]) => k).join(', ');
});

await step('a restarted browser has no token', async () => {
  await browser.context.close();
  page = await open();
  await page.goto(playground);
  await page.locator('.graphiql-container').waitFor();
  assert.equal(await page.inputValue('#token'), '');
  assert.equal(await page.isChecked('#remember'), false);
  assert.equal(await page.textContent('#token-status'), 'No token yet: the schema loads once one is set.');
  // GraphiQL kept the query, and only the query.
  assert.equal(await editor(page, '.graphiql-query-editor'), readmeQuery);
  return 'the query is back, the token is not';
});

await step('"Remember on this browser" keeps the token across restarts', async () => {
  await page.fill('#token', token);
  await page.check('#remember');
  await page.click('button[type=submit]');
  await page.locator('#token-status', { hasText: 'Signed in as' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('bindery.playground.token')), token);

  await browser.context.close();
  page = await open();
  const introspection = page.waitForResponse(isIntrospection);
  await page.goto(playground);
  assert.equal((await introspection).status(), 200, 'the schema loads with the remembered token');
  assert.equal(await page.inputValue('#token'), token);
  assert.equal(await page.isChecked('#remember'), true);
  await page.locator('#token-status', { hasText: 'Signed in as' }).waitFor();
  return 'remembered';
});

await step('"Forget" removes it', async () => {
  await page.click('#forget');
  assert.equal(await page.inputValue('#token'), '');
  for (const [key, value] of await storedValues(page)) assert.ok(!value.includes(token), `${key} holds the token`);
  await page.getByText('Enter an API token above').first().waitFor();
  await assertClean();
  return `${browser.requests.length} requests in the last session, all to ${origin}`;
});

await step('a signed-in browser needs no token, and manages its tokens', async () => {
  await browser.context.close();
  page = await open();
  await page.context().addCookies([{ name: 'bindery_session', value: session, url: origin }]);
  const introspection = page.waitForResponse(isIntrospection);
  await page.goto(playground);
  const res = await introspection;
  assert.equal(res.status(), 200, 'the schema loads with the session');
  assert.equal(res.request().headers().authorization, undefined, 'no token is sent');
  await page.locator('#session-name').waitFor();
  assert.ok(await page.isHidden('#sign-in'));
  assert.equal(await page.textContent('#token-status'), "No token: requests use this browser's session.");

  await page.click('#tokens summary');
  await page.locator('#token-list li').first().waitFor();
  const before = await page.locator('#token-list li').count();
  await page.fill('#new-token-label', 'From the playground');
  await page.click('#new-token button[type=submit]');
  const made = await page.locator('#tokens-status code').textContent();
  assert.match(made, /^bnd_/, 'the new token is shown once');
  await page.locator('#token-list li', { hasText: 'From the playground' }).waitFor();
  assert.equal(await page.locator('#token-list li').count(), before + 1);
  await page.click('button[aria-label="Revoke From the playground"]');
  await page.locator('#tokens-status', { hasText: 'Revoked From the playground.' }).waitFor();
  assert.equal(await page.locator('#token-list li', { hasText: 'From the playground' }).count(), 0);
  await assertClean();
  return `signed in as ${await page.textContent('#session-name')}`;
});

await finish();
