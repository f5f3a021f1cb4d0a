// Drives the official SDK's multitenant instance through tests/parity/multitenant_cases.json,
// with its clock stopped at the cases' `now`, and prints each request it would send (the JWT
// it signs included). Run as capture.js is (see docs/development.md):
//   NODE_PATH=/path/to/node_modules node tests/parity/multitenant.js > tests/parity/multitenant_requests.json
const fs = require('fs');
const path = require('path');
const sdk = require('sharetribe-flex-sdk');

const spec = JSON.parse(fs.readFileSync(path.join(__dirname, 'multitenant_cases.json'), 'utf8'));
Date.now = () => spec.now * 1000;

let captured = null;
const adapter = (config) => {
  const headers = {};
  Object.entries(config.headers.toJSON ? config.headers.toJSON() : config.headers).forEach(
    ([k, v]) => { headers[k.toLowerCase()] = String(v); });
  captured = { httpMethod: config.method.toUpperCase(), path: new URL(config.baseURL + config.url).pathname,
               contentType: headers['content-type'] || null, accept: headers.accept || null,
               authorization: headers.authorization || null,
               body: config.method === 'get' ? null : config.data };
  const answer = config.url.endsWith('client_data') ? spec.answers.client_data : spec.answers.token;
  return Promise.resolve({ data: JSON.stringify(answer), status: 200, statusText: 'OK',
                           headers: { 'content-type': 'application/json' }, config });
};

(async () => {
  const out = [];
  for (const c of spec.cases) {
    const tokenStore = sdk.tokenStore.memoryStore();
    if (c.stored) tokenStore.setToken(c.stored);
    const mt = sdk.createMultitenantInstance({ hostname: c.hostname, multitenantClientSecret: c.secret,
                                               baseUrl: 'https://api.test', adapter, tokenStore });
    captured = null;
    const res = await mt[c.call](...c.args);
    out.push({ call: c.call, ...captured, returned: res.data, stored: tokenStore.getToken() || null });
  }
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
})().catch((e) => { console.error(e); process.exit(1); });
