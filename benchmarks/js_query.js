// The official SDK's listings.query against a local server, the same call flexclient makes:
// the median of N calls after 5 warm-up calls, in ms. Usage: node js_query.js BASE_URL N
const sdkLib = require('sharetribe-flex-sdk');

const [baseUrl, n] = [process.argv[2], Number(process.argv[3])];
const sdk = sdkLib.createInstance({ clientId: 'bench-client', baseUrl });
const params = { perPage: 100, include: ['author', 'images'] };

(async () => {
  for (let i = 0; i < 5; i += 1) await sdk.listings.query(params);
  const times = [];
  for (let i = 0; i < n; i += 1) {
    const t = process.hrtime.bigint();
    const res = await sdk.listings.query(params);
    // Read what flexclient's side reads: each listing's author and images from `included`.
    const byId = new Map(res.data.included.map((r) => [r.id.uuid, r]));
    for (const l of res.data.data) {
      byId.get(l.relationships.author.data.id.uuid);
      l.relationships.images.data.forEach((r) => byId.get(r.id.uuid));
    }
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(times[Math.floor(times.length / 2)].toFixed(3));
})();
