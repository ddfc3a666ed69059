// Runs graphql-http's GraphQL-over-HTTP audit suite against Bindery's
// /graphql endpoint and prints one line per audit.
//
// Environment:
//   BINDERY_URL    base URL of a running server, e.g. http://127.0.0.1:8080
//   BINDERY_TOKEN  an API token; every audit request carries it as a bearer
//                  token, since Bindery's API routes all require one
//
// Exits 1 if any audit reports status "error" (a MUST of the spec is broken)
// or "warn" (a SHOULD), 2 on a usage or unexpected failure. Notices (MAY
// recommendations not followed) are listed at the end; they do not fail the
// run.
//
// Run by e2e/e2e_test.go; by hand:
//   BINDERY_URL=... BINDERY_TOKEN=... node e2e/graphql-audit.mjs

import { serverAudits } from 'graphql-http';

const base = process.env.BINDERY_URL;
const token = process.env.BINDERY_TOKEN;
if (!base || !token) {
  console.error('graphql-audit: set BINDERY_URL and BINDERY_TOKEN');
  process.exit(2);
}
const url = base.replace(/\/+$/, '') + '/graphql';

/** fetchFn adds the bearer token to every request the audits send. */
function fetchFn(input, init = {}) {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${token}`);
  return fetch(input, { ...init, headers });
}

const counts = { ok: 0, notice: 0, warn: 0, error: 0 };
const failures = [];
for (const audit of serverAudits({ url, fetchFn })) {
  let result;
  try {
    result = await audit.fn();
  } catch (err) {
    // The audit itself could not run (network failure, thrown assertion
    // helper): treat it as an error of the server under test.
    const cause = err?.cause ? ` (${err.cause.message ?? err.cause})` : '';
    result = { id: audit.id, name: audit.name, status: 'error', reason: `audit threw: ${err?.message ?? err}${cause}` };
  }
  counts[result.status] = (counts[result.status] ?? 0) + 1;
  if (result.status === 'ok') {
    console.log(`ok     ${result.id} ${result.name}`);
    continue;
  }
  let detail = '';
  if (result.response) {
    // Show what the server answered, to make the reason actionable.
    try {
      const res = result.response.clone();
      const body = (await res.text()).slice(0, 300);
      detail = ` [got ${res.status} ${res.headers.get('content-type') ?? '(no content-type)'}: ${body.replace(/\s+/g, ' ')}]`;
    } catch {
      detail = ` [got ${result.response.status}]`;
    }
  }
  console.log(`${result.status.padEnd(6)} ${result.id} ${result.name}: ${result.reason}${detail}`);
  failures.push({ ...result, detail });
}

console.log(
  `\nsummary: ${counts.ok} ok, ${counts.notice} notice, ${counts.warn} warn, ${counts.error} error`,
);
const remaining = failures.filter((f) => f.status !== 'error');
if (remaining.length > 0) {
  console.log('remaining warnings and notices (recommendations not followed):');
  for (const f of remaining) {
    console.log(`- ${f.status} ${f.id} ${f.name}: ${f.reason}`);
  }
}
// Bindery follows every recommendation of the suite today, so a warning is a
// regression too.
const errors = failures.filter((f) => f.status === 'error' || f.status === 'warn');
if (errors.length > 0) {
  console.error(`graphql-audit: ${errors.length} audit(s) failed with status error or warn:`);
  for (const f of errors) {
    console.error(`- ${f.id} ${f.name}: ${f.reason}${f.detail}`);
  }
  process.exit(1);
}
