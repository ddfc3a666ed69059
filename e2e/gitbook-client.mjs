// Drives Bindery's /v1 with GitBook's official JavaScript client,
// @gitbook/api, unchanged: every organization, collection and space operation
// Bindery serves, in a realistic sequence, asserting on what comes back.
//
// Environment:
//   BINDERY_URL    base URL of a running server (the client appends /v1)
//   BINDERY_TOKEN  an API token of an admin of both organizations
//   BINDERY_ORG    an organization to work in; its title is changed
//   BINDERY_ORG2   a second organization, the target of the transfers
//
// Prints one line per operation; a failed operation also prints the request
// that was sent and what the server answered. Exits 1 if any operation or
// assertion failed (at once if later operations need its result), 2 on a
// usage error.
//
// Run by e2e/e2e_test.go; by hand:
//   BINDERY_URL=... BINDERY_TOKEN=... BINDERY_ORG=... BINDERY_ORG2=... node e2e/gitbook-client.mjs

import assert from 'node:assert/strict';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { steps } from './steps.mjs';

const { BINDERY_URL: endpoint, BINDERY_TOKEN: token, BINDERY_ORG: org, BINDERY_ORG2: org2 } = process.env;
if (!endpoint || !token || !org || !org2) {
  console.error('gitbook-client: set BINDERY_URL, BINDERY_TOKEN, BINDERY_ORG and BINDERY_ORG2');
  process.exit(2);
}

const client = new GitBookAPI({ endpoint, authToken: token });
const { step, finish } = steps('gitbook-client', endpoint);

/**
 * expectError runs a call that must fail and checks that the client surfaces
 * it as a GitBookAPIError with the status and the server's message.
 */
async function expectError(status, call) {
  try {
    await call();
  } catch (err) {
    assert.ok(err instanceof GitBookAPIError, `expected a GitBookAPIError, got ${err?.stack ?? err}`);
    assert.equal(err.code, status, `status: ${err.message}`);
    assert.equal(err.response.status, status);
    assert.ok(typeof err.errorMessage === 'string' && err.errorMessage.length > 0, 'the error has a message');
    assert.notEqual(err.errorMessage, err.response.statusText, 'the message comes from the error envelope');
    return `${err.code} ${JSON.stringify(err.errorMessage)}`;
  }
  assert.fail(`expected an error with status ${status}, but the call succeeded`);
}

/**
 * walk fetches every page of a list with the given page size, following
 * next.page, and checks count and uniqueness on the way.
 */
async function walk(list, limit) {
  const items = [];
  let page;
  let pages = 0;
  let count;
  do {
    const { data } = await list({ limit, ...(page ? { page } : {}) });
    pages++;
    assert.ok(Array.isArray(data.items), 'items is an array');
    assert.ok(data.items.length <= limit, `a page holds at most ${limit} items`);
    assert.equal(typeof data.count, 'number', 'count is a number');
    if (count !== undefined) assert.equal(data.count, count, 'count is stable across pages');
    count = data.count;
    items.push(...data.items);
    page = data.next?.page;
    if (page !== undefined) assert.equal(data.items.length, limit, 'a page with a next page is full');
    assert.ok(pages <= 100, 'pagination ends');
  } while (page);
  const ids = items.map((i) => i.id);
  assert.equal(new Set(ids).size, ids.length, 'no item appears twice');
  assert.equal(items.length, count, 'the pages hold count items');
  return { items, ids, pages };
}

const suffix = Date.now().toString(36);

// --- Users ---------------------------------------------------------------

let me;
await step('user.getAuthenticatedUser()', async () => {
  ({ data: me } = await client.user.getAuthenticatedUser());
  assert.equal(me.object, 'user');
  assert.ok(me.id, 'the user has an id');
  assert.equal(typeof me.displayName, 'string');
  return `${me.id} ${me.email ?? ''}`;
}, { fatal: true });

await step('users.getUserById(me)', async () => {
  const { data } = await client.users.getUserById(me.id);
  assert.equal(data.id, me.id);
  assert.equal(data.object, 'user');
  return data.id;
});

// --- Organizations ---------------------------------------------------------

await step('orgs.listOrganizationsForAuthenticatedUser()', async () => {
  const { data } = await client.orgs.listOrganizationsForAuthenticatedUser();
  const ids = data.items.map((o) => o.id);
  assert.ok(ids.includes(org) && ids.includes(org2), `both organizations are listed: ${ids}`);
  assert.equal(data.count, data.items.length);
  for (const o of data.items) assert.equal(o.object, 'organization');
  return `${data.count} organizations`;
});

await step('orgs.listOrganizationsForAuthenticatedUser({limit: 1}) walking every page', async () => {
  const { ids, pages } = await walk((q) => client.orgs.listOrganizationsForAuthenticatedUser(q), 1);
  assert.ok(ids.includes(org) && ids.includes(org2));
  assert.ok(pages >= 2, 'more than one page');
  return `${ids.length} organizations in ${pages} pages`;
});

let orgTitle;
await step('orgs.getOrganizationById(org)', async () => {
  const { data } = await client.orgs.getOrganizationById(org);
  assert.equal(data.id, org);
  assert.equal(data.object, 'organization');
  orgTitle = data.title;
  return JSON.stringify(data.title);
});

await step('orgs.updateOrganizationById(org, {title})', async () => {
  const title = `Acme Docs ${suffix}`;
  const { data } = await client.orgs.updateOrganizationById(org, { title });
  assert.equal(data.id, org);
  assert.equal(data.title, title, 'the new title comes back');
  assert.notEqual(data.title, orgTitle);
  const { data: again } = await client.orgs.getOrganizationById(org);
  assert.equal(again.title, title, 'the new title is stored');
  return JSON.stringify(data.title);
});

// --- Collections ---------------------------------------------------------

let guides;
await step('orgs.createCollection(org, {title})', async () => {
  ({ data: guides } = await client.orgs.createCollection(org, { title: 'Guides' }));
  assert.equal(guides.object, 'collection');
  assert.equal(guides.title, 'Guides');
  assert.equal(guides.organization, org);
  assert.equal(guides.parent, undefined, 'a top-level collection has no parent');
  return guides.id;
}, { fatal: true });

let nested;
await step('orgs.createCollection(org, {title, parent})', async () => {
  ({ data: nested } = await client.orgs.createCollection(org, { title: 'Tutorials', parent: guides.id }));
  assert.equal(nested.parent, guides.id, 'the parent comes back');
  assert.equal(nested.organization, org);
  return `${nested.id} in ${nested.parent}`;
}, { fatal: true });

let archive;
await step('orgs.createCollection(org, {title: "Archive"})', async () => {
  ({ data: archive } = await client.orgs.createCollection(org, { title: 'Archive' }));
  assert.notEqual(archive.id, guides.id);
  return archive.id;
}, { fatal: true });

await step('orgs.listCollectionsInOrganizationById(org)', async () => {
  const { data } = await client.orgs.listCollectionsInOrganizationById(org);
  const ids = data.items.map((c) => c.id);
  for (const c of [guides, nested, archive]) assert.ok(ids.includes(c.id), `${c.id} is listed: ${ids}`);
  return `${data.count} collections`;
});

await step('orgs.listCollectionsInOrganizationById(org, {nested: false})', async () => {
  const { data } = await client.orgs.listCollectionsInOrganizationById(org, { nested: false });
  const ids = data.items.map((c) => c.id);
  assert.ok(ids.includes(guides.id) && ids.includes(archive.id), `top-level collections are listed: ${ids}`);
  assert.ok(!ids.includes(nested.id), 'a nested collection is not listed');
  return `${data.count} top-level collections`;
});

await step('orgs.listCollectionsInOrganizationById(org, {limit: 2}) walking every page', async () => {
  const { ids, pages } = await walk((q) => client.orgs.listCollectionsInOrganizationById(org, q), 2);
  for (const c of [guides, nested, archive]) assert.ok(ids.includes(c.id));
  return `${ids.length} collections in ${pages} pages`;
});

await step('collections.getCollectionById(guides)', async () => {
  const { data } = await client.collections.getCollectionById(guides.id);
  assert.equal(data.id, guides.id);
  assert.equal(data.title, 'Guides');
  return data.id;
});

await step('collections.updateCollectionById(guides, {title, description})', async () => {
  const { data } = await client.collections.updateCollectionById(guides.id, {
    title: 'User Guides',
    description: 'How to use the product',
  });
  assert.equal(data.id, guides.id);
  assert.equal(data.title, 'User Guides', 'the new title comes back');
  assert.equal(data.description, 'How to use the product', 'the description comes back');
  return JSON.stringify(data.title);
});

// --- Spaces ----------------------------------------------------------------

let intro;
await step('orgs.createSpace(org, {title, emoji, parent})', async () => {
  ({ data: intro } = await client.orgs.createSpace(org, { title: 'Getting Started', emoji: '1f680', parent: guides.id }));
  assert.equal(intro.object, 'space');
  assert.equal(intro.title, 'Getting Started');
  assert.equal(intro.organization, org);
  assert.equal(intro.parent, guides.id);
  return intro.id;
}, { fatal: true });

const loose = [];
await step('orgs.createSpace(org, {title}) x4', async () => {
  for (let i = 1; i <= 4; i++) {
    const { data } = await client.orgs.createSpace(org, { title: `Notes ${i}` });
    assert.equal(data.title, `Notes ${i}`);
    assert.equal(data.parent, undefined);
    loose.push(data);
  }
  return loose.map((s) => s.id).join(' ');
}, { fatal: true });

await step('orgs.listSpacesInOrganizationById(org)', async () => {
  const { data } = await client.orgs.listSpacesInOrganizationById(org);
  const ids = data.items.map((s) => s.id);
  for (const s of [intro, ...loose]) assert.ok(ids.includes(s.id), `${s.id} is listed`);
  return `${data.count} spaces`;
});

await step('orgs.listSpacesInOrganizationById(org, {limit: 2}) walking every page', async () => {
  const { ids, pages } = await walk((q) => client.orgs.listSpacesInOrganizationById(org, q), 2);
  for (const s of [intro, ...loose]) assert.ok(ids.includes(s.id), `${s.id} is on some page`);
  assert.ok(pages >= 3, `at least 3 pages, got ${pages}`);
  return `${ids.length} spaces in ${pages} pages`;
});

await step('spaces.getSpaceById(intro)', async () => {
  const { data } = await client.spaces.getSpaceById(intro.id);
  assert.equal(data.id, intro.id);
  assert.equal(data.title, 'Getting Started');
  assert.equal(data.deletedAt, undefined);
  return data.id;
});

await step('spaces.updateSpaceById(intro, {title})', async () => {
  const { data } = await client.spaces.updateSpaceById(intro.id, { title: 'Getting Started (v2)' });
  assert.equal(data.id, intro.id);
  assert.equal(data.title, 'Getting Started (v2)', 'the new title comes back');
  const { data: again } = await client.spaces.getSpaceById(intro.id);
  assert.equal(again.title, 'Getting Started (v2)', 'the new title is stored');
  return JSON.stringify(data.title);
});

await step('collections.listSpacesInCollectionById(guides)', async () => {
  const { data } = await client.collections.listSpacesInCollectionById(guides.id);
  assert.deepEqual(data.items.map((s) => s.id), [intro.id]);
  assert.equal(data.count, 1);
  return `${data.count} space`;
});

let copy;
await step('spaces.duplicateSpace(intro)', async () => {
  ({ data: copy } = await client.spaces.duplicateSpace(intro.id));
  assert.equal(copy.object, 'space');
  assert.notEqual(copy.id, intro.id, 'the duplicate has a new id');
  assert.equal(copy.organization, org);
  assert.ok(copy.title.includes('Getting Started'), `the duplicate keeps the title: ${copy.title}`);
  return `${copy.id} ${JSON.stringify(copy.title)}`;
}, { fatal: true });

await step('spaces.moveSpace(copy, {parent: null})', async () => {
  const { data } = await client.spaces.moveSpace(copy.id, { parent: null });
  assert.equal(data.id, copy.id);
  assert.equal(data.parent, undefined, 'the space is at the top level');
  return 'top level';
});

await step('spaces.moveSpace(copy, {parent: archive})', async () => {
  const { data } = await client.spaces.moveSpace(copy.id, { parent: archive.id });
  assert.equal(data.parent, archive.id, 'the new parent comes back');
  return `in ${data.parent}`;
});

await step('spaces.moveSpace(loose[3], {position: {before: loose[0]}})', async () => {
  const { data } = await client.spaces.moveSpace(loose[3].id, {
    position: { before: { type: 'space', space: loose[0].id } },
  });
  assert.equal(data.id, loose[3].id);
  assert.equal(data.parent, undefined);
  return 'moved before';
});

await step('spaces.deleteSpaceById(copy)', async () => {
  const res = await client.spaces.deleteSpaceById(copy.id);
  assert.ok(res.status === 204 || res.status === 205, `status ${res.status}`);
  return String(res.status);
});

await step('spaces.getSpaceById(deleted copy)', async () => {
  const { data } = await client.spaces.getSpaceById(copy.id);
  assert.equal(data.id, copy.id);
  assert.ok(data.deletedAt && !Number.isNaN(Date.parse(data.deletedAt)), `deletedAt is a date: ${data.deletedAt}`);
  return `deletedAt ${data.deletedAt}`;
});

await step('spaces.restoreSpace(copy)', async () => {
  const { data } = await client.spaces.restoreSpace(copy.id);
  assert.equal(data.id, copy.id);
  assert.equal(data.deletedAt, undefined, 'a restored space has no deletedAt');
  return 'restored';
});

await step('spaces.transferSpace(loose[0], {organization: org2})', async () => {
  const { data } = await client.spaces.transferSpace(loose[0].id, { organization: org2 });
  assert.equal(data.id, loose[0].id);
  assert.equal(data.organization, org2, 'the space belongs to the second organization');
  const { data: listed } = await client.orgs.listSpacesInOrganizationById(org2);
  assert.ok(listed.items.some((s) => s.id === loose[0].id), 'the space is listed in the second organization');
  return `now in ${data.organization}`;
});

// --- Moving, transferring and deleting collections -----------------------

await step('collections.moveCollection(nested, {parent: archive})', async () => {
  const { data } = await client.collections.moveCollection(nested.id, { parent: archive.id });
  assert.equal(data.id, nested.id);
  assert.equal(data.parent, archive.id, 'the new parent comes back');
  return `in ${data.parent}`;
});

await step('collections.moveCollection(archive, {position: {before: guides}})', async () => {
  const { data } = await client.collections.moveCollection(archive.id, {
    position: { before: { type: 'collection', collection: guides.id } },
  });
  assert.equal(data.id, archive.id);
  assert.equal(data.parent, undefined);
  return 'moved before';
});

await step('collections.transferCollection(archive, {organization: org2})', async () => {
  const { data } = await client.collections.transferCollection(archive.id, { organization: org2 });
  assert.equal(data.id, archive.id);
  assert.equal(data.organization, org2, 'the collection belongs to the second organization');
  const { data: child } = await client.collections.getCollectionById(nested.id);
  assert.equal(child.organization, org2, 'its nested collection went with it');
  const { data: space } = await client.spaces.getSpaceById(copy.id);
  assert.equal(space.organization, org2, 'its space went with it');
  return `now in ${data.organization}`;
});

await step('collections.deleteCollectionById(guides)', async () => {
  const res = await client.collections.deleteCollectionById(guides.id);
  assert.ok(res.status === 204 || res.status === 205, `status ${res.status}`);
  const { data } = await client.spaces.getSpaceById(intro.id);
  assert.ok(data.deletedAt, 'the space of a deleted collection is deleted');
  return String(res.status);
});

// --- Errors, as the client surfaces them -----------------------------------

await step('spaces.getSpaceById(unknown) fails with 404', () =>
  expectError(404, () => client.spaces.getSpaceById('spc_doesnotexist0000000')),
);

await step('collections.getCollectionById(deleted) fails with 404', () =>
  expectError(404, () => client.collections.getCollectionById(guides.id)),
);

await step('orgs.getOrganizationById(unknown) fails with 404', () =>
  expectError(404, () => client.orgs.getOrganizationById('org_doesnotexist0000000')),
);

await step('orgs.createSpace(org, {title: 51 characters}) fails with 400', () =>
  expectError(400, () => client.orgs.createSpace(org, { title: 'x'.repeat(51) })),
);

await step('spaces.restoreSpace(live space) fails with 409', () =>
  expectError(409, () => client.spaces.restoreSpace(loose[1].id)),
);

await step('user.getAuthenticatedUser() with a bad token fails with 401', () =>
  expectError(401, () => new GitBookAPI({ endpoint, authToken: 'not-a-token' }).user.getAuthenticatedUser()),
);

finish();
