// Drives the official SDK's multitenant instance against a running fake marketplace, with a
// Marketplace API instance sharing its token store, and prints what happened as JSON, for
// tests/integration/test_multitenant_fake.py. Usage:
//   NODE_PATH=<dir>/node_modules node multitenant_fake.js <url> <hostname> <secret> <user> <password>
const sdk = require('sharetribe-flex-sdk');

const [baseUrl, hostname, secret, username, password] = process.argv.slice(2);

const failure = (e) => e.status || (e.response && e.response.status) || String(e);

(async () => {
  const out = {};
  const tokenStore = sdk.tokenStore.memoryStore();
  const mt = sdk.createMultitenantInstance({ hostname, multitenantClientSecret: secret, baseUrl, tokenStore });
  const first = await mt.clientData();
  out.clientId = first.data.client_data.client_id;
  out.firstScope = tokenStore.getToken().scope;
  out.againClientId = (await mt.clientData()).data.client_data.client_id;
  const market = sdk.createInstance({ clientId: out.clientId, baseUrl, tokenStore });
  out.totalItems = (await market.listings.query({ perPage: 1 })).data.meta.totalItems;
  await market.login({ username, password });
  out.exchanged = (await mt.tokenExchange()).data.client_data.client_id;
  out.exchangedScope = tokenStore.getToken().scope;
  out.email = (await market.currentUser.show()).data.data.attributes.email;
  const elsewhere = sdk.createMultitenantInstance({ hostname: `not-${hostname}`, multitenantClientSecret: secret,
    baseUrl, tokenStore: sdk.tokenStore.memoryStore() });
  out.otherHostname = await elsewhere.clientData().then(() => 200, failure);
  const wrong = sdk.createMultitenantInstance({ hostname, multitenantClientSecret: `${secret}-wrong`,
    baseUrl, tokenStore: sdk.tokenStore.memoryStore() });
  out.wrongSecret = await wrong.clientData().then(() => 200, failure);
  process.stdout.write(JSON.stringify(out) + '\n');
})().catch((e) => { console.error(e); process.exit(1); });
