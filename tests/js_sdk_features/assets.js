// Calls the Asset Delivery API methods of the official SDK (sharetribe-flex-sdk) against an
// asset CDN (argv: its base URL, the client ID), for the calls read as JSON from stdin:
// [{"fn": "assetsByAlias", "args": {"paths": [...], "alias": "latest"}}, ...]. Prints one
// result per call: {"status", "data"} or {"error": {"status", "data"}} or {"thrown": "..."}.
const sharetribeSdk = require('sharetribe-flex-sdk');

const [cdnUrl, clientId] = process.argv.slice(2);
const sdk = sharetribeSdk.createInstance({
  clientId,
  assetCdnBaseUrl: cdnUrl,
  tokenStore: sharetribeSdk.tokenStore.memoryStore(),
});

(async () => {
  const calls = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const out = [];
  for (const call of calls) {
    try {
      const res = await sdk[call.fn](call.args);
      out.push({ status: res.status, data: res.data });
    } catch (e) {
      if (e.response || e.status) {
        const r = e.response || e;
        out.push({ error: { status: r.status, data: r.data } });
      } else {
        out.push({ thrown: String(e.message) });
      }
    }
  }
  process.stdout.write(JSON.stringify(out));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
