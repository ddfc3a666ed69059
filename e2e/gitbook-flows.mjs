// Drives two flows a new user of GitBook's official client, @gitbook/api,
// tries first, against Bindery's /v1, and compares what a stranger sees with
// GraphQL:
//
//   1. Fill a new space: create it, import a markdown document with an image,
//      read the space (its revision is the imported one), its pages, a page
//      as markdown, its files and the image by ID.
//   2. Read a public space of another organization as a stranger: /v1 and
//      GraphQL show the same organization, parent and change request
//      authors, and no email.
//   3. Find and fix a broken link: import markdown documents that link to
//      each other, one of them to a page that is not there; list the
//      space's links and see it broken; add the page in a change request
//      (GraphQL createPage with changeRequestId), where the link is no
//      longer broken while it still is in the space; merge; see it ok.
//      Search finds the imported pages, and the merged page once merged, in
//      the space and in the organization.
//   4. Administer the organization: invite two people who have accounts by
//      email, which makes them members only once each accepts the
//      invitation with their own token (no one else can); put one in a team
//      with access to a private space, see the space among that member's
//      spaces and read it with their token (not with the other's); create a
//      link invite and join with a third person's token; demoting the last
//      admin is a conflict; add a SAML provider with the bare base64 DER
//      certificate of an identity provider's metadata.
//   5. Publish a site (see below).
//   6. Translate: create a translation in the official form (a source space
//      and a language) and give it instructions.
//
// Environment:
//   BINDERY_URL       base URL of a running server (the client appends /v1)
//   BINDERY_TOKEN     an API token of an admin of BINDERY_ORG
//   BINDERY_ORG       the organization to create the space in
//   BINDERY_IMPORT    URL of a markdown document that embeds an image
//   BINDERY_PUBLIC    a public space of another organization, inside a
//                     collection the stranger cannot see, with change requests
//   BINDERY_STRANGER  an API token of a user of no organization
//   BINDERY_IMPORT_LINKS  URL of a zip of markdown documents: getting-started.md
//                     links to setup.md#steps and to faq.md, which is missing
//   BINDERY_INVITEES  two emails, comma-separated, of people of no organization
//                     who have accounts
//   BINDERY_INVITEE_TOKENS  their API tokens, in the same order (the test
//                     issues them, as `bindery token create` does), with which
//                     each accepts their invitation
//   BINDERY_JOINER    an API token of a third person of no organization
//   BINDERY_SAML_CERT a self-signed X.509 certificate as bare base64 DER, as
//                     the <ds:X509Certificate> of SAML metadata carries it
//
// Prints one line per step and exits 1 if any failed. Run by e2e/e2e_test.go.

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { GitBookAPI } from '@gitbook/api';
import { steps } from './steps.mjs';

const env = process.env;
for (const k of ['BINDERY_URL', 'BINDERY_TOKEN', 'BINDERY_ORG', 'BINDERY_IMPORT', 'BINDERY_PUBLIC', 'BINDERY_STRANGER',
  'BINDERY_IMPORT_LINKS', 'BINDERY_INVITEES', 'BINDERY_INVITEE_TOKENS', 'BINDERY_JOINER', 'BINDERY_SAML_CERT']) {
  if (!env[k]) {
    console.error(`gitbook-flows: set ${k}`);
    process.exit(2);
  }
}
const endpoint = env.BINDERY_URL;
const admin = new GitBookAPI({ endpoint, authToken: env.BINDERY_TOKEN });
const stranger = new GitBookAPI({ endpoint, authToken: env.BINDERY_STRANGER });

const { step, finish } = steps('gitbook-flows', endpoint);

// graphql runs a query as a token's user and returns its data.
async function graphql(token, query, variables) {
  const res = await fetch(`${endpoint}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json();
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  return body.data;
}

// --- 1. Fill a new space ---------------------------------------------------

let space, imported, pageId, fileId;
await step('orgs.createSpace(org, {title})', async () => {
  ({ data: space } = await admin.orgs.createSpace(env.BINDERY_ORG, { title: 'Imported docs' }));
  return space.id;
});
await step('spaces.importContent(space, {source: markdown, url})', async () => {
  const { data } = await admin.spaces.importContent(space.id, { source: 'markdown', url: env.BINDERY_IMPORT });
  imported = data.revision;
  assert.equal(data.importedResources, 2, 'the document and its image');
  return `revision ${imported}`;
});
await step('spaces.getSpaceById(space): its revision is the imported one', async () => {
  const { data } = await admin.spaces.getSpaceById(space.id);
  assert.equal(data.revision, imported);
});
await step('spaces.getCurrentRevision(space)', async () => {
  const { data } = await admin.spaces.getCurrentRevision(space.id);
  assert.equal(data.id, imported);
  assert.equal(data.pages.length, 1);
  assert.equal(data.files.length, 1);
});
await step('spaces.listPages(space)', async () => {
  const { data } = await admin.spaces.listPages(space.id);
  assert.equal(data.pages.length, 1);
  pageId = data.pages[0].id;
  return data.pages.map((p) => p.title).join(', ');
});
await step('spaces.getPageById(space, page, {format: markdown})', async () => {
  const { data } = await admin.spaces.getPageById(space.id, pageId, { format: 'markdown' });
  assert.match(data.markdown, /Hello from the import/);
  assert.match(data.markdown, /\.gitbook\/assets\//, 'the image points at the imported file');
});
await step('spaces.listFiles(space)', async () => {
  const { data } = await admin.spaces.listFiles(space.id);
  assert.equal(data.items.length, 1);
  fileId = data.items[0].id;
  return data.items[0].name;
});
await step('spaces.getFileById(space, file) and its download URL', async () => {
  const { data } = await admin.spaces.getFileById(space.id, fileId);
  assert.equal(data.contentType, 'image/png');
  // The test server's public URL is a made-up host: fetch the same path
  // from where it listens.
  const u = new URL(data.downloadURL);
  const res = await fetch(endpoint + u.pathname + u.search);
  assert.equal(res.status, 200);
  assert.ok((await res.arrayBuffer()).byteLength > 0);
});

// --- 2. A stranger reads a public space of another organization -------------

const spaceFields = `id organization { id } parent { id }
  changeRequests(first: 100) { nodes { id createdBy { id displayName email } } }`;
await step('a stranger sees the same public space in /v1 and GraphQL, and no email', async () => {
  const { data: rest } = await stranger.spaces.getSpaceById(env.BINDERY_PUBLIC);
  const { data: crs } = await stranger.spaces.listChangeRequestsForSpace(env.BINDERY_PUBLIC, { status: 'open' });
  const { space: gql } = await graphql(env.BINDERY_STRANGER,
    `query($id: ID!) { space(id: $id) { ${spaceFields} } }`, { id: env.BINDERY_PUBLIC });
  assert.ok(rest.organization, 'whoever sees a space sees who owns it');
  assert.equal(gql.organization?.id, rest.organization);
  assert.equal(rest.parent, undefined, 'the collection is hidden from the stranger');
  assert.equal(gql.parent, null);
  assert.ok(crs.items.length > 0, 'the space has change requests');
  assert.deepEqual(
    crs.items.map((cr) => [cr.id, cr.createdBy?.id, cr.createdBy?.displayName]),
    gql.changeRequests.nodes.map((cr) => [cr.id, cr.createdBy?.id, cr.createdBy?.displayName]),
  );
  for (const cr of crs.items) assert.equal(cr.createdBy?.email, undefined, 'no email in /v1');
  for (const cr of gql.changeRequests.nodes) assert.equal(cr.createdBy?.email, null, 'no email in GraphQL');
  return `organization ${rest.organization}, ${crs.items.length} change requests`;
});

// --- 3. Find and fix a broken link -----------------------------------------

let docs, startPage, cr;
const brief = (items) => items.map((u) => `${u.status} ${u.targetReference?.kind}:` +
  (u.targetReference?.page?.title ?? u.targetReference?.url ?? '') +
  (u.targetReference?.internalLocation ? `#${u.targetReference.internalLocation.anchor}` : ''));
await step('spaces.importContent(space, {source: zip}) of documents that link to each other', async () => {
  ({ data: docs } = await admin.orgs.createSpace(env.BINDERY_ORG, { title: 'Linked docs' }));
  const { data } = await admin.spaces.importContent(docs.id, { source: 'zip', url: env.BINDERY_IMPORT_LINKS });
  assert.equal(data.importedResources, 2);
  const { data: pages } = await admin.spaces.listPages(docs.id);
  startPage = pages.pages.find((p) => p.title === 'Getting started');
  assert.ok(startPage, 'the page Getting started');
});
await step('spaces.searchSpaceContent(space, {query}): the imported pages, ranked', async () => {
  const { data } = await admin.spaces.searchSpaceContent(docs.id, { query: 'setup' });
  assert.deepEqual(data.items.map((p) => p.title), ['Setup', 'Getting started'], 'the title match first');
  assert.ok(data.items[1].sections.some((s) => s.body.includes('the setup')), 'the matching section, with its text');
  const { data: none } = await admin.spaces.searchSpaceContent(docs.id, { query: 'questions' });
  assert.equal(none.items.length, 0);
  return data.items.map((p) => `${p.title} (${p.sections.map((s) => s.id).join(', ')})`).join('; ');
});
await step('spaces.listSpaceLinks(space): one link is broken', async () => {
  const { data } = await admin.spaces.listSpaceLinks(docs.id);
  assert.deepEqual(brief(data.items), ['ok page:Setup#steps', 'broken url:faq.md', 'ok page:Getting started']);
  assert.deepEqual(data.stats, { total: 3, broken: { total: 1 } });
  const { data: broken } = await admin.spaces.listSpaceLinks(docs.id, { status: 'broken' });
  assert.equal(broken.count, 1);
  assert.equal(broken.items[0].locationReferences[0].page.id, startPage.id, 'where the broken link is');
  return brief(broken.items).join(', ');
});
await step('add the missing page in a change request: the link is ok there, still broken in the space', async () => {
  ({ data: cr } = await admin.spaces.createChangeRequest(docs.id, { subject: 'Add the FAQ' }));
  await graphql(env.BINDERY_TOKEN, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
    { in: { changeRequestId: cr.id, title: 'FAQ', markdown: 'Questions.' } });
  const { data: inCR } = await admin.spaces.listPageLinksInChangeRequest(docs.id, cr.id, startPage.id);
  assert.deepEqual(brief(inCR.items), ['ok page:Setup#steps', 'ok page:FAQ']);
  assert.deepEqual(inCR.stats, { total: 2, broken: { total: 0, changeRequest: 0 } });
  const { data: inSpace } = await admin.spaces.listPageLinksInSpace(docs.id, startPage.id);
  assert.equal(inSpace.stats.broken.total, 1);
});
await step('spaces.mergeChangeRequest(space, cr): no broken link left', async () => {
  await admin.spaces.mergeChangeRequest(docs.id, cr.id);
  const { data } = await admin.spaces.listSpaceLinks(docs.id);
  assert.deepEqual(data.stats, { total: 3, broken: { total: 0 } });
  assert.deepEqual(brief(data.items), ['ok page:Setup#steps', 'ok page:FAQ', 'ok page:Getting started']);
});
await step('orgs.searchOrganizationContent(org, {query}): the merged page is found', async () => {
  const { data } = await admin.orgs.searchOrganizationContent(env.BINDERY_ORG, { query: 'questions' });
  const hit = data.items.find((sp) => sp.id === docs.id);
  assert.ok(hit, 'the space is found');
  assert.deepEqual(hit.pages.map((p) => p.title), ['FAQ']);
});

// --- 4. Administer the organization ----------------------------------------

const org = env.BINDERY_ORG;
const invitees = env.BINDERY_INVITEES.split(',');
const [annToken, bobToken] = env.BINDERY_INVITEE_TOKENS.split(',');
const ann = new GitBookAPI({ endpoint, authToken: annToken });
const bob = new GitBookAPI({ endpoint, authToken: bobToken });
const joiner = new GitBookAPI({ endpoint, authToken: env.BINDERY_JOINER });
let annId, bobId, privateSpace, team, invite;
await step('orgs.inviteUsersToOrganization(org, {emails, role}): two people with accounts are invited, not added', async () => {
  const { data } = await admin.orgs.inviteUsersToOrganization(org, { emails: invitees, role: 'read' });
  assert.deepEqual(data, { users: [], invited: 2, failedSSOEmails: [] }, 'no member, two invitations, no account revealed');
  ({ data: { id: annId } } = await ann.user.getAuthenticatedUser());
  ({ data: { id: bobId } } = await bob.user.getAuthenticatedUser());
  await assert.rejects(admin.orgs.getMemberInOrganizationById(org, annId), (err) => err.code === 404, 'not a member yet');
  await assert.rejects(admin.users.getUserById(annId), (err) => err.code === 404, 'their account stays theirs');
  await assert.rejects(ann.orgs.getOrganizationById(org), (err) => err.code === 404);
}, { fatal: true });
// invitationOf is the invitation waiting for a token's user, as GraphQL
// lists it for them.
async function invitationOf(token) {
  const data = await graphql(token, `{ invitations(first: 10) { nodes { id role organization { id } } } }`);
  const mine = data.invitations.nodes.filter((i) => i.organization.id === org);
  assert.equal(mine.length, 1, 'one invitation to the organization');
  return mine[0];
}
await step('orgs.joinOrganizationWithInvite(org, invitation) by each invitee: pending, then accepted', async () => {
  const annInvite = await invitationOf(annToken);
  assert.equal(annInvite.role, 'READ');
  await assert.rejects(joiner.orgs.joinOrganizationWithInvite(org, annInvite.id), (err) => err.code === 404,
    'only the invitee accepts');
  await ann.orgs.joinOrganizationWithInvite(org, annInvite.id);
  await ann.orgs.joinOrganizationWithInvite(org, annInvite.id); // again: nothing changes
  await bob.orgs.joinOrganizationWithInvite(org, (await invitationOf(bobToken)).id);
  for (const id of [annId, bobId]) {
    const { data: member } = await admin.orgs.getMemberInOrganizationById(org, id);
    assert.equal(member.role, 'read');
  }
  const { data: seen } = await ann.orgs.getOrganizationById(org);
  assert.equal(seen.id, org);
  return `${annId}, ${bobId}`;
}, { fatal: true });
await step('a private space, a team with access to it, the first invitee in the team', async () => {
  ({ data: privateSpace } = await admin.orgs.createSpace(org, { title: 'Private plans' }));
  await admin.spaces.updateSpaceById(privateSpace.id, { defaultLevel: null });
  ({ data: team } = await admin.orgs.createOrganizationTeam(org, { title: 'Planners' }));
  await admin.orgs.addMemberToOrganizationTeamById(org, team.id, annId, { role: 'member' });
  await graphql(env.BINDERY_TOKEN, `mutation($t: ID!, $s: ID!) { setTeamContentRole(input: {teamId: $t, contentId: $s, role: EDIT}) {
    team { id } } }`, { t: team.id, s: privateSpace.id });
  const { data } = await admin.orgs.getTeamInOrganizationById(org, team.id);
  assert.equal(data.members, 1);
  assert.equal(data.spaces, 1);
});
await step("orgs.listSpacesForOrganizationMember(org, invitee): the private space, through the team", async () => {
  const { data } = await admin.orgs.listSpacesForOrganizationMember(org, annId);
  const item = data.items.find((it) => it.space.id === privateSpace.id);
  assert.ok(item, 'the private space is among their spaces');
  assert.equal(item.permission, 'edit');
  const { data: bobs } = await admin.orgs.listSpacesForOrganizationMember(org, bobId);
  assert.equal(bobs.items.find((it) => it.space.id === privateSpace.id), undefined, 'not among the other invitee\'s');
  return `${data.items.length} spaces`;
});
await step("spaces.getSpaceById(private) with the invitees' tokens: the team member reads it", async () => {
  const { data } = await ann.spaces.getSpaceById(privateSpace.id);
  assert.equal(data.title, 'Private plans');
  assert.equal(data.permissions.edit, true);
  await assert.rejects(bob.spaces.getSpaceById(privateSpace.id), (err) => err.code === 404);
});
await step('orgs.createOrganizationInvite(org, {role}) and joinOrganizationWithInvite with a third token', async () => {
  ({ data: invite } = await admin.orgs.createOrganizationInvite(org, { role: 'comment' }));
  assert.equal(invite.role, 'comment');
  await assert.rejects(joiner.orgs.getOrganizationById(org), (err) => err.code === 404);
  await joiner.orgs.joinOrganizationWithInvite(org, invite.id);
  const { data: me } = await joiner.user.getAuthenticatedUser();
  const { data: member } = await admin.orgs.getMemberInOrganizationById(org, me.id);
  assert.equal(member.role, 'comment');
  const { data: seen } = await joiner.orgs.getOrganizationById(org);
  assert.equal(seen.id, org);
  const { data: links } = await admin.orgs.listOrganizationInviteLinks(org);
  assert.deepEqual(links.items.map((i) => i.id), [invite.id]);
  await assert.rejects(joiner.orgs.listOrganizationInviteLinks(org), (err) => err.code === 403);
});
await step('orgs.updateMemberInOrganizationById(org, last admin, {role: read}): 409', async () => {
  const { data: me } = await admin.user.getAuthenticatedUser();
  await assert.rejects(admin.orgs.updateMemberInOrganizationById(org, me.id, { role: 'read' }),
    (err) => err.code === 409 && /last admin/.test(err.errorMessage));
  const { data: member } = await admin.orgs.getMemberInOrganizationById(org, me.id);
  assert.equal(member.role, 'admin');
});

await step('orgs.createOrganizationSamlProvider(org, {certificate}): bare base64 DER from IdP metadata', async () => {
  // As metadata wraps it: 64 characters a line, indented.
  const wrapped = `\n      ${env.BINDERY_SAML_CERT.match(/.{1,64}/g).join('\n      ')}\n    `;
  const { data } = await admin.orgs.createOrganizationSamlProvider(org, {
    label: 'Okta', ssoURL: 'https://idp.example.com/sso', entityID: 'https://idp.example.com/metadata', certificate: wrapped,
  });
  assert.equal(data.status, 'active');
  assert.match(data.certificate, /^-----BEGIN CERTIFICATE-----\n/, 'stored and answered as PEM');
  assert.equal(data.certificate.replace(/-----[A-Z ]+-----|\s/g, ''), env.BINDERY_SAML_CERT, 'the same certificate');
  await assert.rejects(admin.orgs.createOrganizationSamlProvider(org, { label: 'Broken', certificate: 'MIIB!!' }),
    (err) => err.code === 400 && /certificate/.test(err.errorMessage));
  return data.id;
});

// --- 5. Publish a site -----------------------------------------------------

// visitorJWT signs claims with HS256 under key, valid for an hour.
function visitorJWT(key, claims) {
  const enc = (v) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const body = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ ...claims, exp: Math.floor(Date.now() / 1000) + 3600 })}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

let site, guideSection, apiSection, visitorKey;
await step('orgs.createSite(org, {title, spaces}) from two spaces', async () => {
  const { data: guide } = await admin.orgs.createSpace(org, { title: 'Guide' });
  const { data: api } = await admin.orgs.createSpace(org, { title: 'API reference' });
  ({ data: site } = await admin.orgs.createSite(org, { title: 'Developer docs', spaces: [guide.id] }));
  assert.equal(site.siteSpaces, 1);
  const { data: first } = await admin.orgs.listSiteSpaces(org, site.id);
  ({ data: guideSection } = await admin.orgs.addSectionToSite(org, site.id, { spaceId: guide.id, title: 'Guide' }));
  ({ data: apiSection } = await admin.orgs.addSectionToSite(org, site.id, { spaceId: api.id, title: 'API' }));
  const { data: sections } = await admin.orgs.listSiteSections(org, site.id);
  assert.deepEqual(sections.items.map((s) => s.title), ['Developer docs', 'Guide', 'API'],
    'the first section takes the root site-spaces into a default section');
  return `${site.id}, ${first.items.length} site-space at first`;
}, { fatal: true });
await step('orgs.addSectionGroupToSite, orgs.moveSiteSection and orgs.moveSiteSectionGroup beside a section', async () => {
  const { data: group } = await admin.orgs.addSectionGroupToSite(org, site.id, { title: 'Reference', sections: [apiSection.id] });
  assert.deepEqual(group.sections.map((s) => s.id), [apiSection.id]);
  await admin.orgs.moveSiteSection(org, site.id, apiSection.id, { position: { before: { type: 'site-section', siteSection: guideSection.id } } });
  const { data: sections } = await admin.orgs.listSiteSections(org, site.id);
  assert.deepEqual(sections.items.map((s) => s.title), ['Developer docs', 'API', 'Guide']);
  // A group placed among the sections of the top level, named by a section.
  const order = async () => (await admin.orgs.getPublishedContentSite(org, site.id, {})).data.structure.structure
    .map((it) => it.title);
  await admin.orgs.moveSiteSectionGroup(org, site.id, group.id, { position: { after: { type: 'site-section', id: guideSection.id } } });
  assert.deepEqual(await order(), ['Developer docs', 'Guide', 'Reference']);
  await admin.orgs.moveSiteSectionGroup(org, site.id, group.id, { position: { before: { type: 'site-section', id: guideSection.id } } });
  assert.deepEqual(await order(), ['Developer docs', 'Reference', 'Guide']);
});
await step('orgs.createSiteRedirect and orgs.getSiteRedirectBySource', async () => {
  await admin.orgs.createSiteRedirect(org, site.id, { source: '/old/api', destination: { kind: 'site-section', siteSectionId: apiSection.id } });
  const { data } = await admin.orgs.getSiteRedirectBySource(org, site.id, { source: 'old/api/?from=mail' });
  assert.equal(data.redirect.source, '/old/api');
  assert.match(data.target, new RegExp(`/sites/${site.id}/${apiSection.path}$`));
  return data.target;
});
await step('visitor-auth with adaptive content: schema, conditions, signing key, publish', async () => {
  await admin.orgs.updateSiteAdaptiveSchema(org, site.id, {
    jsonSchema: {
      type: 'object',
      properties: { isBetaUser: { type: 'boolean', description: 'In the beta programme' } },
      additionalProperties: false,
    },
  });
  await admin.orgs.updateSiteSectionById(org, site.id, apiSection.id, { condition: 'visitor.claims.isBetaUser' });
  await admin.orgs.updateSiteById(org, site.id, { visibility: 'visitor-auth', adaptiveContent: { enabled: true } });
  const data = await graphql(env.BINDERY_TOKEN, `mutation($s: ID!) { rotateSiteVisitorAuthKey(input: {siteId: $s}) { key } }`,
    { s: site.id });
  visitorKey = data.rotateSiteVisitorAuthKey.key;
  const { data: published } = await admin.orgs.publishSite(org, site.id);
  assert.equal(published.published, true);
}, { fatal: true });
// titles lists the published structure: groups as "group / section".
const titles = (data) => data.structure.structure.flatMap((it) =>
  it.object === 'site-section-group' ? it.sections.map((s) => `${it.title} / ${s.title}`) : [it.title]);
await step('orgs.getPublishedContentSite as a stranger, with two visitor JWTs', async () => {
  await assert.rejects(stranger.orgs.getPublishedContentSite(org, site.id, {}), (err) => err.code === 404);
  const beta = await stranger.orgs.getPublishedContentSite(org, site.id, { visitorAuthToken: visitorJWT(visitorKey, { isBetaUser: true }) });
  assert.deepEqual(titles(beta.data), ['Developer docs', 'Reference / API', 'Guide']);
  const plain = await stranger.orgs.getPublishedContentSite(org, site.id, { visitorAuthToken: visitorJWT(visitorKey, { isBetaUser: false }) });
  assert.deepEqual(titles(plain.data), ['Developer docs', 'Guide']);
  await assert.rejects(stranger.orgs.getPublishedContentSite(org, site.id, { visitorAuthToken: visitorJWT('wrong', {}) }),
    (err) => err.code === 404);
  return titles(beta.data).join(' | ');
});
await step('orgs.createSiteShareLink: a share-link site read with its key', async () => {
  await admin.orgs.updateSiteById(org, site.id, { visibility: 'share-link' });
  const { data: link } = await admin.orgs.createSiteShareLink(org, site.id, { name: 'Partners' });
  const shareKey = new URL(link.urls.published).searchParams.get('shareKey');
  const { data } = await stranger.orgs.getPublishedContentSite(org, site.id, { shareKey });
  assert.equal(data.site.id, site.id);
  await assert.rejects(stranger.orgs.getPublishedContentSite(org, site.id, { shareKey: 'nope' }), (err) => err.code === 404);
});

// --- 6. Translate --------------------------------------------------------

let translation;
await step('orgs.createTranslation(org, {language, source: {space, language}}): the official form', async () => {
  const { data: guide } = await admin.orgs.createSpace(org, { title: 'Handbook' });
  ({ data: translation } = await admin.orgs.createTranslation(org, { language: 'fr', source: { space: guide.id, language: 'en' } }));
  assert.equal(translation.language, 'fr');
  assert.deepEqual(translation.source, { space: guide.id, language: 'en' });
  assert.equal(translation.status, 'pending', 'Bindery runs no machine translation');
  assert.equal(translation.stats.runs, 0);
  assert.equal(translation.title, 'Handbook (fr)', "the contract's title, named after the source");
  assert.deepEqual(translation.languages, ['fr']);
  return translation.id;
});
await step('orgs.updateTranslation(org, translation, {instructions})', async () => {
  const instructions = {
    object: 'document', data: {},
    nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Keep product names in English.', marks: [] }] }] }],
  };
  const { data } = await admin.orgs.updateTranslation(org, translation.id, { instructions });
  assert.deepEqual(data.instructions, instructions);
  assert.equal(data.title, 'Handbook (fr)', 'the rest stays');
  const { data: again } = await admin.orgs.getTranslation(org, translation.id);
  assert.deepEqual(again.instructions, instructions);
});

finish();
