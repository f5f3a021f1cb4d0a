// Drives the official Marketplace SDK through the web template's calls
// (tests/data/web_template_calls.json), each with the example value of its kinds, and prints
// the request each would send. Run from a folder where the SDK is installed:
//   NODE_PATH=/path/to/node_modules node tests/parity/template_capture.js \
//     > tests/parity/template_requests.json
// Calls of the Authentication API (login, ...) and uploads (a browser File) are left out:
// their Python calls are not a translation of the same keys.
const fs = require('fs');
const path = require('path');
const axios = require('axios');
const sdkModule = require('sharetribe-flex-sdk');

const corpus = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', 'data', 'web_template_calls.json'), 'utf8'));

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
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(types)(v)]));
};

// The example arguments of a call: the template's fixed values, else its kinds' examples.
const example = (keys, values) =>
  Object.fromEntries(Object.entries(keys).map(
    ([k, kind]) => [k, values && k in values ? values[k] : corpus._examples[kind]]));

let captured = null;
const adapter = (config) => {
  const headers = {};
  Object.entries(config.headers.toJSON ? config.headers.toJSON() : config.headers).forEach(
    ([k, v]) => { headers[k.toLowerCase()] = String(v); });
  captured = { method: config.method.toUpperCase(), url: axios.getUri(config),
               contentType: headers['content-type'] || null,
               body: typeof config.data === 'string' ? config.data : null };
  return Promise.resolve({ data: '["^ ","~:data",null]', status: 200, statusText: 'OK',
                           headers: { 'content-type': 'application/transit+json' }, config });
};

(async () => {
  const out = [];
  for (const c of corpus.calls) {
    const kinds = Object.values(c.params).concat(Object.values(c.query || {}));
    if (!c.call.includes('.') || kinds.includes('file')) continue;
    const tokenStore = sdkModule.tokenStore.memoryStore();
    tokenStore.setToken({ access_token: 'token', token_type: 'bearer', expires_in: 86400,
                          scope: 'user' });
    const sdk = sdkModule.createInstance({ clientId: 'client-id', baseUrl: 'https://api.test',
                                           adapter, tokenStore });
    const [group, action] = c.call.split('.');
    // A list of parameter parts, as the template gives it, where it does.
    const first = example(c.params, c.values);
    const args = [c.parts ? [first] : first];
    if (c.query) args.push(example(c.query, c.values));
    if (c.second) args.push(example(c.second, c.values));
    captured = null;
    await sdk[group][action](...args.map(revive(sdkModule.types)));
    const u = new URL(captured.url);
    out.push({ file: c.file, line: c.line, call: c.call, httpMethod: captured.method,
               path: u.pathname, query: u.search.replace(/^\?/, ''),
               contentType: captured.contentType, body: captured.body });
  }
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
})().catch((e) => { console.error(e); process.exit(1); });
