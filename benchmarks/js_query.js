// The official SDKs' call for one page shape of benchmarks/_pages.py against a local server,
// the call flexclient makes (benchmarks/end_to_end.py), one call for each line read from
// stdin; prints each call's time in ms, a line each, so that end_to_end.py can interleave it
// with its own calls. Each call reaches what a program reads: every included resource each
// listed resource names (as the Web Template's denormalisation does), or an event's resource.
// Usage: node js_query.js URL SHAPE (SHAPE: listings, search, transactions, events, sparse)
const readline = require('readline');

const [baseUrl, shape] = [process.argv[2], process.argv[3] || 'listings'];
const credentials = { clientId: 'bench-client', clientSecret: 'bench-secret', baseUrl };
const marketplace = () => require('sharetribe-flex-sdk').createInstance(credentials);
const integration = () => require('sharetribe-flex-integration-sdk').createInstance(credentials);

const SEARCH_FIELDS = ['title', 'geolocation', 'price', 'deleted', 'state', 'publicData'];
const CARD_VARIANTS = ['scaled-small', 'scaled-medium', 'listing-card', 'listing-card-2x'];
const CALLS = {
  listings: [marketplace, 'listings', { perPage: 100, include: ['author', 'images'] }],
  search: [
    marketplace,
    'listings',
    {
      perPage: 24,
      include: ['author', 'author.profileImage', 'images'],
      'fields.listing': SEARCH_FIELDS,
      'fields.image': CARD_VARIANTS.map((v) => `variants.${v}`),
      'imageVariant.listing-card': 'w:400;h:400;fit:crop',
      'imageVariant.listing-card-2x': 'w:800;h:800;fit:crop',
      'limit.images': 1,
    },
  ],
  transactions: [
    marketplace,
    'transactions',
    { perPage: 50, include: ['listing', 'provider', 'customer', 'booking', 'reviews', 'messages'] },
  ],
  events: [integration, 'events', { startAfterSequenceId: 999 }],
  sparse: [marketplace, 'listings', { perPage: 100, 'fields.listing': ['title', 'price'] }],
};

const [makeSdk, group, params] = CALLS[shape];
const sdk = makeSdk();

// The resources `path` (an include path, `author.profileImage`) leads to from `resource`.
function reach(byKey, resource, path) {
  const [name, ...rest] = path;
  const rel = resource.relationships && resource.relationships[name];
  const refs = rel ? [].concat(rel.data || []) : [];
  return refs.forEach((ref) => {
    const found = byKey.get(`${ref.type}/${ref.id.uuid}`);
    if (found && rest.length) reach(byKey, found, rest);
  });
}

function read(res) {
  const byKey = new Map((res.data.included || []).map((r) => [`${r.type}/${r.id.uuid}`, r]));
  const paths = (params.include || []).map((p) => p.split('.'));
  for (const r of res.data.data) {
    paths.forEach((path) => reach(byKey, r, path));
    if (shape === 'sparse') [r.attributes.title, r.attributes.price.amount];
    if (shape === 'events') r.attributes.resource;
  }
}

async function once() {
  const t = process.hrtime.bigint();
  read(await sdk[group].query(params));
  return Number(process.hrtime.bigint() - t) / 1e6;
}

(async () => {
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === '') continue;
    process.stdout.write(`${(await once()).toFixed(4)}\n`);
  }
})();
