// Signs in to Bindery with OpenID Connect in headless Chromium, against
// node-oidc-provider, a certified OpenID Provider, run on this machine.
//
//   node oidc.mjs serve    runs the provider until stopped: one client
//                          (Bindery) and one account, whose email is
//                          verified; any password signs it in on the
//                          provider's development login page. Prints
//                          "issuer <URL>" once it listens.
//   node oidc.mjs browse   opens Bindery's sign-in page, takes a screenshot
//                          of it, runs axe-core on it, clicks "Sign in with
//                          <name>", signs in and consents at the provider,
//                          and checks that Bindery signed the account's
//                          address in.
//
// Environment of serve:
//   OIDC_REDIRECT_URI   Bindery's callback, <public URL>/auth/oidc/<slug>/callback
//   OIDC_PORT           the port to listen on (default: any free one)
//   OIDC_CLIENT_ID      default "bindery"
//   OIDC_CLIENT_SECRET  default "bindery-dev-secret"
//   OIDC_EMAIL          the account's address (default ada@example.com)
// Environment of browse:
//   BINDERY_URL         Bindery's public URL
//   BINDERY_ADDR        host:port where it really listens, when its public
//                       URL's host name resolves elsewhere (Chromium maps it)
//   OIDC_ISSUER         the provider's issuer
//   OIDC_NAME           the provider's name in Bindery (default "Acme ID")
//   OIDC_EMAIL          as above
//   SCREENSHOT          where to write the sign-in page's screenshot
//   CHROMIUM            the Chromium binary (default /usr/bin/chromium)
//
// Run by e2e/signin_test.go (TestOIDCSignInInBrowser). By hand, from the
// repository's root (npm ci in e2e/ first):
//   (cd e2e && OIDC_PORT=9090 OIDC_REDIRECT_URI=http://127.0.0.1:8080/auth/oidc/dev-idp/callback node oidc.mjs serve) &
//   go run ./cmd/bindery org create --title Demo --owner ada@example.com
//   BINDERY_OIDC_PROVIDERS='[{"name":"Dev IdP","issuer":"http://127.0.0.1:9090","clientId":"bindery","clientSecret":"bindery-dev-secret"}]' \
//     go run ./cmd/bindery serve
// then open http://127.0.0.1:8080/auth/sign-in, or let Chromium do it:
//   (cd e2e && BINDERY_URL=http://127.0.0.1:8080 OIDC_ISSUER=http://127.0.0.1:9090 OIDC_NAME="Dev IdP" node oidc.mjs browse)

import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { axe, launch, mapHosts, profile, sessionEmail, steps } from './browser.mjs';

const env = process.env;
const email = env.OIDC_EMAIL || 'ada@example.com';

switch (process.argv[2]) {
  case 'serve':
    await serve();
    break;
  case 'browse':
    await browse();
    break;
  default:
    console.error('usage: node oidc.mjs serve|browse (see the comment at the top)');
    process.exit(2);
}

async function serve() {
  if (!env.OIDC_REDIRECT_URI) {
    console.error('oidc serve: set OIDC_REDIRECT_URI to Bindery\'s callback');
    process.exit(2);
  }
  const server = createServer();
  await new Promise((resolve) => server.listen(Number(env.OIDC_PORT || 0), '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  // A signing key of this run's own: nothing ships a development key.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [{
      client_id: env.OIDC_CLIENT_ID || 'bindery',
      client_secret: env.OIDC_CLIENT_SECRET || 'bindery-dev-secret',
      redirect_uris: [env.OIDC_REDIRECT_URI],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    }],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'e2e', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The development login page signs in whatever login is typed: only
    // the one account exists.
    async findAccount(_ctx, id) {
      if (id !== email) return undefined;
      return {
        accountId: id,
        async claims() {
          return { sub: id, email, email_verified: true, name: 'Ada Lovelace' };
        },
      };
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
  });
  server.on('request', provider.callback());
  console.log(`issuer ${issuer}`);
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function browse() {
  const names = ['BINDERY_URL', 'OIDC_ISSUER'];
  const missing = names.filter((n) => !env[n]);
  if (missing.length > 0) {
    console.error(`oidc browse: set ${missing.join(', ')}`);
    process.exit(2);
  }
  const bindery = new URL(env.BINDERY_URL).origin;
  const issuer = env.OIDC_ISSUER;
  const providerName = env.OIDC_NAME || 'Acme ID';
  mapHosts([[bindery, env.BINDERY_ADDR]]);

  const { step, finish, onExit } = steps('oidc');
  const browser = await launch(profile(), [bindery, issuer]);
  onExit(async () => browser.context.close());
  const { page } = browser;
  await page.setViewportSize({ width: 1280, height: 800 });

  await step('the sign-in page offers the provider', async () => {
    const res = await page.goto(`${bindery}/auth/sign-in`);
    assert.equal(res.status(), 200);
    await page.getByRole('link', { name: `Sign in with ${providerName}` }).waitFor();
    if (env.SCREENSHOT) {
      await page.screenshot({ path: env.SCREENSHOT, fullPage: true });
      return `screenshot ${env.SCREENSHOT}`;
    }
    return '';
  });

  await step('axe: the sign-in page', async () => {
    const line = await axe(page);
    assert.deepEqual(browser.errors, [], 'no script error and no CSP violation on the sign-in page');
    return line;
  });

  await step(`sign in at ${providerName}`, async () => {
    await page.getByRole('link', { name: `Sign in with ${providerName}` }).click();
    await page.waitForURL((u) => u.origin === new URL(issuer).origin);
    await page.locator('input[name=login]').fill(email);
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    return page.url();
  });

  await step('consent', async () => {
    await page.getByRole('button', { name: 'Continue' }).click();
    // The callback redirects to where the sign-in began, or shows why not.
    await page.waitForURL((u) => u.origin === bindery && !u.pathname.endsWith('/callback'))
      .catch(async (err) => {
        const notice = await page.locator('.notice').textContent().catch(() => '');
        throw new Error(`stayed at ${page.url()}: ${notice || err.message}`);
      });
    return page.url();
  });

  await step('back at Bindery, signed in', async () => {
    assert.equal(new URL(page.url()).pathname, '/', 'where the sign-in began');
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    const viewer = await sessionEmail(browser, bindery, env.BINDERY_ADDR);
    assert.equal(viewer, email);
    const cookies = await browser.context.cookies(bindery);
    assert.ok(!cookies.some((c) => c.name === 'bindery_flow'), 'the flow cookie is gone');
    return `viewer ${viewer}`;
  });

  // The provider's development pages load a web font from Google, which
  // the guard refuses; Bindery's pages ask nothing of another host.
  const foreign = browser.foreign.filter((u) => !u.startsWith('https://fonts.googleapis.com/'));
  assert.deepEqual(foreign, [], 'every request goes to Bindery or the provider');
  await finish();
}
