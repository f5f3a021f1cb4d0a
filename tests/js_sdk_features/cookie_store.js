// Runs the official SDK (sharetribe-flex-sdk) with its own cookie token stores, the browser
// store (js-cookie, on a stand-in for document.cookie) and the Express store (on stand-ins
// for Express's req.cookies and res.cookie), for the steps read as JSON from stdin:
//   {"clientId", "baseUrl", "steps": [{"store": "browser"|"express", "secure": bool,
//     "cookie": <the cookie's value as a Cookie header carries it, or null>,
//     "action": "read"|"set"|"login"|"loginAs"|"call"|"logout", ...}]}
// and prints, for each step: the token the store holds after it, authInfo(), what the
// action answered, and what the store wrote: for the browser store the string given to
// document.cookie, for the Express store res.cookie's arguments with the value as Express's
// default encoding (encodeURIComponent) puts it in the Set-Cookie header.
const sharetribeSdk = require('sharetribe-flex-sdk');

// document.cookie as a browser keeps one site's cookies: reading gives "name=value; ...",
// writing sets one cookie from "name=value; attributes" (an expiry in the past deletes it).
const jar = new Map();
let lastWrite = null;
global.document = {
  get cookie() {
    return [...jar.entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  },
  set cookie(text) {
    lastWrite = text;
    const [pair, ...attributes] = text.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1);
    const expires = attributes.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('expires='));
    if (expires && new Date(expires.slice(8)) < new Date()) jar.delete(name);
    else jar.set(name, value);
  },
};

const run = async ({ clientId, baseUrl, steps }) => {
  const name = `st-${clientId}-token`;
  const out = [];
  for (const step of steps) {
    jar.clear();
    lastWrite = null;
    let written = null;
    let tokenStore;
    if (step.store === 'browser') {
      if (step.cookie != null) jar.set(name, step.cookie);
      tokenStore = sharetribeSdk.tokenStore.browserCookieStore({ clientId, secure: step.secure });
    } else {
      // cookie-parser gives req.cookies decoded as the `cookie` package decodes them.
      const cookies = {};
      if (step.cookie != null) {
        cookies[name] = step.cookie.indexOf('%') !== -1 ? decodeURIComponent(step.cookie) : step.cookie;
      }
      const res = {
        cookie: (key, value, options) => {
          written = { name: key, value: encodeURIComponent(value), options };
        },
        clearCookie: (key) => {
          written = { name: key, cleared: true };
        },
      };
      tokenStore = sharetribeSdk.tokenStore.expressCookieStore({
        clientId, req: { cookies }, res, secure: step.secure,
      });
    }
    const sdk = sharetribeSdk.createInstance({ clientId, baseUrl, tokenStore });
    let answer = null;
    if (step.action === 'set') {
      await tokenStore.setToken(step.token);
    } else if (step.action === 'login') {
      await sdk.login({ username: step.username, password: step.password });
    } else if (step.action === 'loginAs') {
      await sdk.loginAs({ code: step.code, redirect_uri: 'https://example.test/cb', code_verifier: 'verifier' });
    } else if (step.action === 'call') {
      const res = await sdk.currentUser.show();
      answer = { id: res.data.data.id.uuid, email: res.data.data.attributes.email };
    } else if (step.action === 'logout') {
      await sdk.logout();
    }
    if (step.store === 'browser' && lastWrite !== null) written = { header: lastWrite };
    out.push({
      token: (await tokenStore.getToken()) || null,
      authInfo: await sdk.authInfo(),
      answer,
      written,
    });
  }
  return out;
};

run(JSON.parse(require('fs').readFileSync(0, 'utf8')))
  .then((out) => process.stdout.write(JSON.stringify(out)))
  .catch((e) => {
    console.error(e && e.response ? JSON.stringify(e.response.data) : e);
    process.exit(1);
  });
