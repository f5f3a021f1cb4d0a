// Drives the official JS SDKs against a running fake marketplace and prints what they decoded,
// as JSON, for tests/integration/test_js_sdk_fidelity.py. Usage:
//   NODE_PATH=<dir>/node_modules node drive_fake.js <url> <client id> <client secret> <user> <password> <png path> <listing id> <booking start>
// The listing (of another user, with a Stripe account) is booked from <booking start> (ISO).
const fs = require('fs');
const marketplaceSdk = require('sharetribe-flex-sdk');
const integrationSdk = require('sharetribe-flex-integration-sdk');

const [url, clientId, clientSecret, username, password, pngPath, listingUuid, bookingStart] =
  process.argv.slice(2);
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

  // A booking, as a marketplace's server makes one: time slots, a speculative and a real
  // request from a trusted SDK (line items set by the server), then the customer's steps.
  const bookedId = new types.UUID(listingUuid);
  const start = new Date(bookingStart);
  const end = new Date(start.getTime() + 2 * 3600 * 1000);
  const slots = await sdk.timeslots.query({
    listingId: bookedId, start, end: new Date(start.getTime() + 7 * 24 * 3600 * 1000) });
  const slot = slots.data.data[0];
  out.timeSlot = {
    type: slot.type, slotType: slot.attributes.type, seats: slot.attributes.seats,
    startIsDate: slot.attributes.start instanceof Date,
  };
  const customer = marketplaceSdk.createInstance({ clientId, clientSecret, baseUrl: url,
    tokenStore: marketplaceSdk.tokenStore.memoryStore() });
  await customer.login({ username, password });
  const exchanged = await customer.exchangeToken();
  const trustedStore = marketplaceSdk.tokenStore.memoryStore();
  trustedStore.setToken(exchanged.data);
  const trusted = marketplaceSdk.createInstance({ clientId, baseUrl: url, tokenStore: trustedStore });
  const params = {
    listingId: bookedId, bookingStart: start, bookingEnd: end,
    lineItems: [{ code: 'line-item/hour', unitPrice: new types.Money(3000, 'EUR'), quantity: 2,
      includeFor: ['customer', 'provider'] }],
  };
  const body = { processAlias: 'default-booking/release-1', transition: 'transition/request-payment', params };
  const guess = await trusted.transactions.initiateSpeculative(body, { expand: true });
  const tx = await trusted.transactions.initiate(body, { expand: true, include: ['booking'] });
  const txData = tx.data.data;
  const item = txData.attributes.lineItems[0];
  const booking = tx.data.included.find((r) => r.type === 'booking');
  out.transaction = {
    speculativePayin: [guess.data.data.attributes.payinTotal.amount, guess.data.data.attributes.payinTotal.currency],
    payinIsMoney: txData.attributes.payinTotal instanceof types.Money,
    payin: txData.attributes.payinTotal.amount,
    lineTotalIsMoney: item.lineTotal instanceof types.Money,
    quantityIsBigDecimal: item.quantity instanceof types.BigDecimal,
    quantity: item.quantity.value,
    lastTransition: txData.attributes.lastTransition,
    transitionCreatedAtIsDate: txData.attributes.transitions[0].createdAt instanceof Date,
    bookingState: booking.attributes.state,
    bookingStartIsDate: booking.attributes.start instanceof Date,
    bookingStart: booking.attributes.start.toISOString(),
  };
  // The browser's step, as Stripe.js takes it: the payment intent confirmed with a card, by
  // the client secret the transaction's protected data holds.
  const intent = txData.attributes.protectedData.stripePaymentIntents.default;
  const stripe = await fetch(
    `${url}/stripe/v1/payment_intents/${intent.stripePaymentIntentId}/confirm`,
    { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: intent.stripePaymentIntentClientSecret,
        payment_method: 'pm_card_visa' }) });
  out.stripe = { status: stripe.status, intent: (await stripe.json()).status };
  const confirmed = await customer.transactions.transition(
    { id: txData.id, transition: 'transition/confirm-payment', params: {} }, { expand: true });
  out.confirmed = confirmed.data.data.attributes.lastTransition;
  try {
    await customer.transactions.transition({ id: txData.id, transition: 'transition/confirm-payment', params: {} });
  } catch (e) {
    out.transitionError = { status: e.status, code: e.data.errors[0].code };
  }
  const nexts = await customer.processTransitions.query({ transactionId: txData.id });
  out.processTransitions = nexts.data.data.map((t) => [t.type, t.attributes.name, t.attributes.actor]);
  await customer.messages.send({ transactionId: txData.id, content: 'See you!' });
  const messages = await customer.messages.query({ transactionId: txData.id, include: ['sender'] });
  out.messages = messages.data.data.map((m) => ({
    content: m.attributes.content, createdAtIsDate: m.attributes.createdAt instanceof Date,
    senderType: m.relationships.sender.data.type }));

  // The operator's side, through the Integration SDK.
  const txUuid = new integrationSdk.types.UUID(txData.id.uuid);
  const operated = await integ.transactions.transition(
    { id: txUuid, transition: 'transition/operator-accept', params: {} }, { expand: true, include: ['booking'] });
  const acceptedBooking = operated.data.included.find((r) => r.type === 'booking');
  out.operator = {
    by: operated.data.data.attributes.transitions.slice(-1)[0].by,
    bookingState: acceptedBooking.attributes.state,
  };
  const me = await customer.currentUser.show();
  const permitted = await integ.users.updatePermissions(
    { id: new integrationSdk.types.UUID(me.data.data.id.uuid), initiateTransactions: 'permission/deny' },
    { expand: true });
  out.permissions = permitted.data.data.attributes.permissions;

  // Every demo user has a Stripe account (in Finland, for this one): read it back.
  const account = await customer.stripeAccount.fetch();
  out.stripeAccount = { type: account.data.data.type, id: account.data.data.attributes.stripeAccountId.slice(0, 5),
    country: account.data.data.attributes.stripeAccountData.country };
  const stripeCustomer = await customer.stripeCustomer.create(
    { stripePaymentMethodId: 'pm_card_visa' }, { expand: true, include: ['defaultPaymentMethod'] });
  const method = stripeCustomer.data.included[0];
  out.paymentMethod = { type: method.type, card: method.attributes.card };
  await customer.passwordReset.request({ email: username });
  out.passwordReset = 'requested';
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e && (e.data || e)); process.exit(1); });
