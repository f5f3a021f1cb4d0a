// Drives the official JS SDKs through tests/parity/cases.json and prints, for each case, the
// request they would send. Run from a folder where both SDKs are installed:
//   NODE_PATH=/path/to/node_modules node tests/parity/capture.js > tests/parity/js_requests.json
const fs = require('fs');
const path = require('path');
const axios = require('axios');
const marketplaceSdk = require('sharetribe-flex-sdk');
const integrationSdk = require('sharetribe-flex-integration-sdk');

const cases = JSON.parse(fs.readFileSync(path.join(__dirname, 'cases.json'), 'utf8')).cases;

const revive = (types) => (value) => {
  if (Array.isArray(value)) return value.map(revive(types));
  if (value === null || typeof value !== 'object') return value;
  if ('$uuid' in value) return new types.UUID(value.$uuid);
  if ('$money' in value) return new types.Money(...value.$money);
  if ('$latlng' in value) return new types.LatLng(...value.$latlng);
  if ('$bounds' in value) {
    const [a, b, c, d] = value.$bounds;
    return new types.LatLngBounds(new types.LatLng(a, b), new types.LatLng(c, d));
  }
  if ('$date' in value) return new Date(value.$date);
  if ('$decimal' in value) return new types.BigDecimal(value.$decimal);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(types)(v)]));
};

const camel = (s) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

let captured = null;
const adapter = (config) => {
  const url = axios.getUri(config);
  const headers = {};
  Object.entries(config.headers.toJSON ? config.headers.toJSON() : config.headers).forEach(
    ([k, v]) => { headers[k.toLowerCase()] = String(v); });
  captured = { method: config.method.toUpperCase(), url, contentType: headers['content-type'] || null,
               accept: headers.accept || null, body: typeof config.data === 'string' ? config.data : null };
  return Promise.resolve({ data: '["^ ","~:data",null]', status: 200, statusText: 'OK',
                           headers: { 'content-type': 'application/transit+json' }, config });
};

const token = { access_token: 'token', token_type: 'bearer', expires_in: 86400, scope: 'public-read' };

const make = (api) => {
  if (api === 'marketplace') {
    const tokenStore = marketplaceSdk.tokenStore.memoryStore();
    tokenStore.setToken(token);
    return [marketplaceSdk.createInstance({ clientId: 'client-id', baseUrl: 'https://api.test', adapter, tokenStore }), marketplaceSdk.types];
  }
  const tokenStore = integrationSdk.tokenStore.memoryStore();
  tokenStore.setToken({ ...token, scope: 'integ' });
  return [integrationSdk.createInstance({ clientId: 'client-id', clientSecret: 'secret', baseUrl: 'https://api.test', adapter, tokenStore }), integrationSdk.types];
};

(async () => {
  const out = [];
  for (const c of cases) {
    const [sdk, types] = make(c.api);
    const [group, action] = c.method.split('.');
    captured = null;
    await sdk[camel(group)][camel(action)](...c.args.map(revive(types)));
    const u = new URL(captured.url);
    out.push({ api: c.api, method: c.method, httpMethod: captured.method, path: u.pathname,
               query: u.search.replace(/^\?/, ''), contentType: captured.contentType,
               accept: captured.accept, body: captured.body });
  }
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
})().catch((e) => { console.error(e); process.exit(1); });
