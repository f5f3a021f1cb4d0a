// Drives the official JS SDKs against a running fake marketplace and prints what they decoded,
// as JSON, for tests/integration/test_js_sdk_fidelity.py. Usage:
//   NODE_PATH=<dir>/node_modules node drive_fake.js <url> <client id> <client secret> <user> <password> <png path>
const fs = require('fs');
const marketplaceSdk = require('sharetribe-flex-sdk');
const integrationSdk = require('sharetribe-flex-integration-sdk');

const [url, clientId, clientSecret, username, password, pngPath] = process.argv.slice(2);
const { types } = marketplaceSdk;

(async () => {
  const out = {};
  const sdk = marketplaceSdk.createInstance({ clientId, baseUrl: url,
    tokenStore: marketplaceSdk.tokenStore.memoryStore() });

  const page = await sdk.listings.query({ perPage: 3, include: ['author', 'images'], sort: 'price' });
  const first = page.data.data[0];
  const author = page.data.included.find(
    (r) => r.type === 'user' && r.id.uuid === first.relationships.author.data.id.uuid);
  out.query = {
    status: page.status,
    count: page.data.data.length,
    totalItems: page.data.meta.totalItems,
    firstId: first.id.uuid,
    idIsUUID: first.id instanceof types.UUID,
    title: first.attributes.title,
    priceIsMoney: first.attributes.price instanceof types.Money,
    price: [first.attributes.price.amount, first.attributes.price.currency],
    geolocationIsLatLng: first.attributes.geolocation instanceof types.LatLng,
    createdAtIsDate: first.attributes.createdAt instanceof Date,
    createdAt: first.attributes.createdAt.toISOString(),
    authorName: author.attributes.profile.displayName,
    imageUrl: page.data.included.find((r) => r.type === 'image').attributes.variants.default.url,
  };

  await sdk.login({ username, password });
  out.authInfo = await sdk.authInfo();

  const blob = new Blob([fs.readFileSync(pngPath)], { type: 'image/png' });
  const image = await sdk.images.upload({ image: blob }, { expand: true });
  out.upload = { type: image.data.data.type, variants: Object.keys(image.data.data.attributes.variants) };

  const created = await sdk.ownListings.create({
    title: 'JS bike',
    price: new types.Money(5000, 'EUR'),
    geolocation: new types.LatLng(60.16, 24.93),
    publicData: { gears: 7 },
    images: [image.data.data.id],
  }, { expand: true, include: ['images'] });
  const attrs = created.data.data.attributes;
  out.create = {
    id: created.data.data.id.uuid,
    type: created.data.data.type,
    price: [attrs.price.amount, attrs.price.currency],
    priceIsMoney: attrs.price instanceof types.Money,
    geolocation: [attrs.geolocation.lat, attrs.geolocation.lng],
    publicData: attrs.publicData,
    images: created.data.data.relationships.images.data.map((r) => r.id.uuid),
  };

  const integ = integrationSdk.createInstance({ clientId, clientSecret, baseUrl: url,
    tokenStore: integrationSdk.tokenStore.memoryStore() });
  // Each SDK has its own UUID class.
  const listingId = new integrationSdk.types.UUID(created.data.data.id.uuid);
  const updated = await integ.listings.update(
    { id: listingId, title: 'JS bike, renamed', metadata: { rank: 2 } }, { expand: true });
  out.update = { title: updated.data.data.attributes.title, metadata: updated.data.data.attributes.metadata };

  const events = await integ.events.query({ resourceId: listingId });
  out.events = events.data.data.map((e) => ({
    sequenceId: e.attributes.sequenceId,
    eventType: e.attributes.eventType,
    resourceType: e.attributes.resource && e.attributes.resource.type,
    resourceTitle: e.attributes.resource && e.attributes.resource.attributes.title,
    previousValues: e.attributes.previousValues,
  }));

  try {
    await sdk.listings.show({ id: new types.UUID('00000000-0000-4000-8000-000000000000') });
  } catch (e) {
    out.error = { status: e.status, code: e.data.errors[0].code };
  }
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e && (e.data || e)); process.exit(1); });
