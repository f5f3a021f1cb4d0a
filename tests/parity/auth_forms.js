// Drives the official JS SDKs through every request to the Authentication API they make
// (logins, the token exchange, refresh, revoke, the default tokens) and prints each form body
// as they write it, the key order included. Run as capture.js is (see docs/development.md):
//   NODE_PATH=/path/to/node_modules node tests/parity/auth_forms.js > tests/parity/auth_forms.json
const marketplaceSdk = require('sharetribe-flex-sdk');
const integrationSdk = require('sharetribe-flex-integration-sdk');

const BASE = 'https://api.test';
const userToken = { access_token: 'access-1', token_type: 'bearer', expires_in: 86400,
                    scope: 'user', refresh_token: 'refresh-1' };

let sent = [];
// Answers every token request with a user token; an API call with the stale token `expired`
// gets a 401, so that the SDK refreshes it.
const adapter = (config) => {
  const url = new URL(config.baseURL + config.url).pathname;
  const auth = (config.headers.toJSON ? config.headers.toJSON() : config.headers).Authorization;
  if (url.includes('/auth/')) {
    sent.push({ path: url, body: config.data });
    return Promise.resolve({ data: JSON.stringify(userToken), status: 200, statusText: 'OK',
                             headers: { 'content-type': 'application/json' }, config });
  }
  if (auth === 'Bearer expired') {
    const error = new Error('Unauthorized');
    error.response = { status: 401, statusText: 'Unauthorized', data: '', headers: {}, config };
    error.config = config;
    return Promise.reject(error);
  }
  return Promise.resolve({ data: '["^ ","~:data",null]', status: 200, statusText: 'OK',
                           headers: { 'content-type': 'application/transit+json' }, config });
};

const marketplace = (stored) => {
  const tokenStore = marketplaceSdk.tokenStore.memoryStore();
  if (stored) tokenStore.setToken(stored);
  return marketplaceSdk.createInstance({ clientId: 'client-id', clientSecret: 'client secret',
                                         baseUrl: BASE, adapter, tokenStore });
};

const calls = {
  anonymous: () => marketplace(null).listings.query({}),
  login: () => marketplace(null).login({ username: 'joe@example.com', password: 'pass word&=' }),
  loginAs: () => marketplace(null).loginAs({ code: 'code-1', redirect_uri: 'https://app.test/cb',
                                             code_verifier: 'verifier-1' }),
  loginWithIdp: () => marketplace(null).loginWithIdp({ idpId: 'google', idpClientId: 'idp-client',
                                                      idpToken: 'idp-token/+=' }),
  exchangeToken: () => marketplace(userToken).exchangeToken(),
  refresh: () => marketplace({ ...userToken, access_token: 'expired' }).listings.query({}),
  logout: () => marketplace(userToken).logout(),
  integration: () => {
    const tokenStore = integrationSdk.tokenStore.memoryStore();
    return integrationSdk.createInstance({ clientId: 'client-id', clientSecret: 'client secret',
                                           baseUrl: BASE, adapter, tokenStore }).listings.query({});
  },
};

(async () => {
  const out = {};
  for (const [name, call] of Object.entries(calls)) {
    sent = [];
    await call();
    out[name] = sent;
  }
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
})().catch((e) => { console.error(e); process.exit(1); });
