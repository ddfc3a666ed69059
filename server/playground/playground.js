// The playground's own code: sign-in, the viewer's tokens and a token form
// above GraphiQL.
//
// Every request to Bindery needs a session or an API token. A browser
// signed in to Bindery sends its session's cookie with each request of
// this page (fetch sends same-origin cookies), so nothing needs pasting;
// a browser without one is offered the server's ways to sign in. A token,
// when one is set, is used instead: it lives in this page's memory and
// reaches the server through the fetcher's Authorization header, so it
// never enters GraphiQL's header editor and GraphiQL cannot store it
// (shouldPersistHeaders stays false for what the user types there). It is
// written to localStorage only when "Remember on this browser" is ticked,
// and "Forget" removes it.
(() => {
  'use strict';

  const storageKey = 'bindery.playground.token';
  const defaultQuery = `# Bindery's GraphQL API. Sign in, or set an API
# token above (make run prints one), then run the
# query with Ctrl-Enter. The docs and autocompletion
# follow the schema once you are signed in.
{
  viewer {
    displayName
    organizations(first: 5) {
      nodes {
        title
      }
    }
  }
}
`;

  const mount = document.getElementById('graphiql');
  const endpoint = mount.dataset.endpoint;
  const form = document.getElementById('token-form');
  const input = document.getElementById('token');
  const remember = document.getElementById('remember');
  const forget = document.getElementById('forget');
  const status = document.getElementById('token-status');
  const signIn = document.getElementById('sign-in');
  const sessionBar = document.getElementById('session');
  const sessionName = document.getElementById('session-name');
  const tokens = document.getElementById('tokens');
  const tokenList = document.getElementById('token-list');
  const newToken = document.getElementById('new-token');
  const newTokenLabel = document.getElementById('new-token-label');
  const tokensStatus = document.getElementById('tokens-status');
  const root = ReactDOM.createRoot(mount);

  let token = '';
  // session is the display name of the browser's signed-in user, or null.
  let session = null;
  let generation = 0;

  // localStorage may be unavailable (storage disabled): then nothing is
  // remembered.
  const saved = {
    get() {
      try {
        return localStorage.getItem(storageKey) || '';
      } catch {
        return '';
      }
    },
    set(value) {
      try {
        localStorage.setItem(storageKey, value);
      } catch {
        say('This browser does not let the page remember the token.', true);
      }
    },
    clear() {
      try {
        localStorage.removeItem(storageKey);
      } catch {
        // Nothing was stored.
      }
    },
  };

  function say(text, isError = false) {
    status.textContent = text;
    status.classList.toggle('error', isError);
  }

  // credentials are the headers that authenticate a request: the token's,
  // or none, and the session's cookie goes by itself.
  function credentials() {
    return token ? { Authorization: `Bearer ${token}` } : {};
  }

  function fetcher() {
    if (!token && session === null) {
      return () =>
        Promise.resolve({ errors: [{ message: 'Sign in or enter an API token above: every request to Bindery needs one.' }] });
    }
    const http = GraphiQL.createFetcher({ url: endpoint, headers: credentials() });
    return (params, options) => (isSubscription(params) ? events(params) : http(params, options));
  }

  // ask runs an operation with the page's credentials.
  async function ask(query, variables = {}) {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { ...credentials(), 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return res.json();
  }

  // isSubscription tells whether the operation that runs is a
  // subscription: the one named, or the document's first.
  function isSubscription(params) {
    const source = params.query.replace(/"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*/g, '');
    const ops = [...source.matchAll(/(?:^|[\s}])(query|mutation|subscription)\b\s*([_A-Za-z][_0-9A-Za-z]*)?/g)];
    const op = params.operationName ? ops.find((m) => m[2] === params.operationName) : ops[0];
    return op?.[1] === 'subscription';
  }

  // events runs a subscription as Server-Sent Events, which fetch can send
  // the Authorization header with, and yields each event's result.
  async function* events(params) {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { ...credentials(), 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(params),
    });
    if (!res.ok || !res.body || !res.headers.get('Content-Type')?.includes('text/event-stream')) {
      yield await res.json();
      return;
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          if (frame.includes('event: complete')) return;
          const data = frame.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
          if (data) yield JSON.parse(data);
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  // A new key mounts a new GraphiQL, which loads the schema with the new
  // token. The editors keep their content: GraphiQL stores the query itself.
  function render() {
    generation += 1;
    root.render(
      React.createElement(GraphiQL, {
        key: generation,
        fetcher: fetcher(),
        defaultQuery,
        shouldPersistHeaders: false,
      }),
    );
  }

  // Says whose token it is, or why the server refused it.
  async function check() {
    const mine = generation;
    say('Checking the token…');
    let text;
    let isError = true;
    try {
      const body = await ask('{ viewer { displayName } }');
      if (body.errors?.length) {
        text = `The server refused the token: ${body.errors[0].message}`;
      } else {
        text = `Signed in as ${body.data?.viewer?.displayName ?? 'an unnamed user'}.`;
        isError = false;
      }
    } catch (err) {
      text = `Could not reach the server: ${err.message}`;
    }
    if (mine === generation) say(text, isError);
  }

  // Finds out whether the browser is signed in (/auth/session reads the
  // session's cookie).
  async function findSession() {
    try {
      const res = await fetch('/auth/session', { headers: { Accept: 'application/json' } });
      const body = await res.json();
      session = body.signedIn ? body.user.displayName : null;
    } catch {
      session = null;
    }
    signIn.hidden = session !== null;
    sessionBar.hidden = session === null;
    sessionName.textContent = session ?? '';
  }

  // Lists the viewer's tokens, each with a button that revokes it.
  async function listTokens() {
    tokens.hidden = !token && session === null;
    if (tokens.hidden) return;
    const body = await ask('{ viewer { apiTokens(first: 100) { nodes { id label createdAt lastUsedAt expiresAt } } } }');
    tokenList.replaceChildren();
    for (const t of body.data?.viewer?.apiTokens?.nodes ?? []) {
      const item = document.createElement('li');
      const used = t.lastUsedAt ? `last used ${t.lastUsedAt}` : 'never used';
      item.append(`${t.label} (made ${t.createdAt}, ${used}${t.expiresAt ? `, expires ${t.expiresAt}` : ''}) `);
      const revoke = document.createElement('button');
      revoke.type = 'button';
      revoke.textContent = 'Revoke';
      revoke.setAttribute('aria-label', `Revoke ${t.label}`);
      revoke.addEventListener('click', async () => {
        const res = await ask('mutation($id: ID!) { revokeAPIToken(input: { id: $id }) { revokedAPITokenId } }', { id: t.id });
        // The list is redrawn before the status speaks, so the two never disagree.
        await listTokens();
        tokensStatus.textContent = res.errors?.length ? res.errors[0].message : `Revoked ${t.label}.`;
      });
      item.append(revoke);
      tokenList.append(item);
    }
  }

  newToken.addEventListener('submit', async (event) => {
    event.preventDefault();
    const res = await ask(
      'mutation($label: String!) { createAPIToken(input: { label: $label }) { token apiToken { label } } }',
      { label: newTokenLabel.value.trim() },
    );
    tokensStatus.replaceChildren();
    if (res.errors?.length) {
      tokensStatus.textContent = res.errors[0].message;
      return;
    }
    const code = document.createElement('code');
    code.textContent = res.data.createAPIToken.token;
    tokensStatus.append(`Your new token, shown only now: `, code);
    newTokenLabel.value = '';
    listTokens();
  });

  function use(value) {
    token = value;
    if (token && remember.checked) saved.set(token);
    else saved.clear();
    render();
    listTokens();
    if (token) check();
    else if (session !== null) say('No token: requests use this browser\'s session.');
    else say('No token yet: the schema loads once one is set.');
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (!value) {
      say('Enter a token first.', true);
      return;
    }
    use(value);
  });
  remember.addEventListener('change', () => {
    if (remember.checked && token) saved.set(token);
    if (!remember.checked) saved.clear();
  });
  forget.addEventListener('click', () => {
    input.value = '';
    remember.checked = false;
    use('');
  });

  const remembered = saved.get();
  if (remembered) {
    input.value = remembered;
    remember.checked = true;
  }
  findSession().then(() => use(remembered));
})();
