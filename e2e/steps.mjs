// The step runner the client scripts share: one line per operation, the last
// request and answer of a failed one, and an exit status.

import { GitBookAPIError } from '@gitbook/api';

// The client calls the global fetch. Record the last exchange, passing
// everything through untouched, so that a failure can say what was sent and
// what came back.
let last = null;
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init = {}) => {
  last = { method: init.method ?? 'GET', url: String(input), body: init.body ?? null, status: null, response: null };
  const res = await realFetch(input, init);
  last.status = res.status;
  try {
    last.response = (await res.clone().text()).trim().slice(0, 2000);
  } catch {
    // The body is not needed to proceed.
  }
  return res;
};

/**
 * steps returns the step runner of a script. step runs one operation and
 * prints one line for it: fn returns the detail to print and throws on a
 * failed call or assertion. A failed step is reported and the run goes on,
 * so that one run lists every incompatibility, unless later steps need its
 * result (fatal). finish prints the outcome and exits, non-zero if any step
 * failed.
 */
export function steps(script, endpoint) {
  let count = 0;
  const failed = [];

  function finish() {
    if (failed.length > 0) {
      console.error(`${script}: ${failed.length} of ${count} operations failed:`);
      for (const name of failed) console.error(`- ${name}`);
      process.exit(1);
    }
    console.log(`\n${count} operations passed with @gitbook/api against ${endpoint}`);
    process.exit(0);
  }

  async function step(name, fn, { fatal = false } = {}) {
    count++;
    last = null;
    try {
      const detail = await fn();
      console.log(`ok   ${name}${detail ? ` -> ${detail}` : ''}`);
    } catch (err) {
      failed.push(name);
      console.log(`FAIL ${name}`);
      if (err instanceof GitBookAPIError) {
        console.log(`  GitBookAPIError code=${err.code} message=${JSON.stringify(err.errorMessage)}`);
      } else {
        console.log(`  ${err?.stack ?? err}`);
      }
      if (last) {
        console.log(`  last request: ${last.method} ${last.url}${last.body ? ` body=${last.body}` : ''}`);
        console.log(`  answered: ${last.status} ${last.response ?? ''}`);
      }
      if (fatal) finish();
    }
  }

  return { step, finish };
}
