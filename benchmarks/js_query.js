// The official SDK's listings.query against a local server, the call flexclient makes, one
// call for each line read from stdin; prints each call's time in ms, a line each, so that
// benchmarks/end_to_end.py can interleave it with its own calls. Usage: node js_query.js URL
const readline = require('readline');
const sdkLib = require('sharetribe-flex-sdk');

const sdk = sdkLib.createInstance({ clientId: 'bench-client', baseUrl: process.argv[2] });
const params = { perPage: 100, include: ['author', 'images'] };

async function once() {
  const t = process.hrtime.bigint();
  const res = await sdk.listings.query(params);
  // Read what flexclient's side reads: each listing's author and images from `included`.
  const byId = new Map(res.data.included.map((r) => [r.id.uuid, r]));
  for (const l of res.data.data) {
    byId.get(l.relationships.author.data.id.uuid);
    l.relationships.images.data.forEach((r) => byId.get(r.id.uuid));
  }
  return Number(process.hrtime.bigint() - t) / 1e6;
}

(async () => {
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === '') continue;
    process.stdout.write(`${(await once()).toFixed(4)}\n`);
  }
})();
