// transit-js as the tests' reference for flexclient's Transit reader and writer.
//
// Reads one JSON request a line on stdin and answers each with one JSON line on stdout, so
// that a whole test session needs one node process:
//   {"op": "read", "texts": [...]}   -> [{"ok": <canonical value>} | {"error": "..."}, ...]
//       each text read by the official SDK's own reader (sharetribe-flex-sdk's transit.read)
//   {"op": "write", "values": [...], "verbose": false}
//                                    -> [{"ok": "<transit>", "sdk": "<transit>" | null}, ...]
//       each value written by transit-js with the handlers the SDK registers for its types
//       (tests/js reproduces them: the SDK exports no writer that takes transit-js's own
//       keywords); "sdk" is the SDK's own transit.write of the same value where plain
//       JavaScript objects can hold it, to show that the two agree.
//
// Values travel as JSON with markers: {"$map": [[key, value], ...]} (keys written as
// keywords, in this order), {"$kw": name}, {"$uuid": s}, {"$money": [amount, currency]},
// {"$latlng": [lat, lng]}, {"$decimal": s}, {"$date": millis}, {"$int": digits} (an integer
// beyond JavaScript's safe range), and, to write only: {"$set": [...]}, {"$list": [...]},
// {"$cmap": [[key, value], ...]}, {"$bytes": base64}, {"$sym": s}, {"$uri": s},
// {"$tag": [tag, rep]}, {"$float": "NaN" | "INF" | "-INF"}. Values read come back in the same
// form, with {"$undefined": true} and {"$baretag": s} for what transit-js makes of some
// malformed input.
'use strict';

const readline = require('readline');
const transit = require('transit-js');
const sdk = require('sharetribe-flex-sdk');

const { UUID, Money, LatLng, BigDecimal } = sdk.types;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const handler = (tag, rep) => transit.makeWriteHandler({ tag: () => tag, rep });
const sdkHandlers = transit.map([
  UUID, handler('u', (v) => v.uuid),
  LatLng, handler('geo', (v) => [v.lat, v.lng]),
  Money, handler('mn', (v) => [v.amount, v.currency]),
  BigDecimal, handler('f', (v) => v.value),
]);
const writers = {
  compact: transit.writer('json', { handlers: sdkHandlers }),
  verbose: transit.writer('json-verbose', { handlers: sdkHandlers }),
};

const marker = (v) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0].startsWith('$') ? keys[0] : null;
};

const bigInteger = (digits) => {
  const n = BigInt(digits);
  return n >= INT64_MIN && n <= INT64_MAX ? transit.integer(digits) : transit.bigInt(digits);
};

const special = { NaN: NaN, INF: Infinity, '-INF': -Infinity };

// A marked JSON value -> the value transit-js writes.
const revive = (v) => {
  if (Array.isArray(v)) return v.map(revive);
  const m = marker(v);
  if (m === null) return v;
  const x = v[m];
  switch (m) {
    case '$map': return transit.map(x.flatMap(([k, val]) => [transit.keyword(k), revive(val)]));
    case '$cmap': return transit.map(x.flatMap(([k, val]) => [revive(k), revive(val)]));
    case '$kw': return transit.keyword(x);
    case '$uuid': return new UUID(x);
    case '$money': return new Money(revive(x[0]), x[1]);
    case '$latlng': return new LatLng(x[0], x[1]);
    case '$decimal': return new BigDecimal(x);
    case '$date': return new Date(x);
    case '$int': return bigInteger(x);
    case '$set': return transit.set(x.map(revive));
    case '$list': return transit.list(x.map(revive));
    case '$bytes': return new Uint8Array(Buffer.from(x, 'base64'));
    case '$sym': return transit.symbol(x);
    case '$uri': return transit.uri(x);
    case '$tag': return transit.tagged(x[0], revive(x[1]));
    case '$float': return special[x];
    default: throw new Error(`unknown marker ${m}`);
  }
};

// The same value as the SDK's own writer takes it (plain objects, the SDK's types), or
// null where plain objects cannot hold it: keywords, wide integers, keys that JavaScript
// objects reorder (array indexes) or treat specially (__proto__), the write-only markers.
const INDEX = /^(0|[1-9][0-9]*)$/;
const NOT_PLAIN = Symbol('not plain');
const plain = (v) => {
  if (Array.isArray(v)) return v.map(plain);
  const m = marker(v);
  if (m === null) return v;
  const x = v[m];
  switch (m) {
    case '$map': {
      if (x.some(([k]) => INDEX.test(k) || k === '__proto__')) throw NOT_PLAIN;
      return Object.fromEntries(x.map(([k, val]) => [k, plain(val)]));
    }
    case '$uuid': case '$latlng': case '$decimal': case '$date': return revive(v);
    case '$money': return new Money(plain(x[0]), x[1]);
    default: throw NOT_PLAIN;
  }
};

const sdkWrite = (v) => {
  try {
    return sdk.transit.write(plain(v));
  } catch (e) {
    if (e === NOT_PLAIN) return null;
    throw e;
  }
};

// What the SDK's reader made -> marked JSON.
const canonical = (v) => {
  if (v === undefined) return { $undefined: true };
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return v;
    return { $float: Number.isNaN(v) ? 'NaN' : v > 0 ? 'INF' : '-INF' };
  }
  if (Array.isArray(v)) return v.map(canonical);
  if (v instanceof Date) return { $date: Number.isNaN(v.getTime()) ? null : v.getTime() };
  if (v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString('base64') };
  if (v instanceof UUID) return { $uuid: v.uuid };
  if (v instanceof Money) return { $money: [canonical(v.amount), canonical(v.currency)] };
  if (v instanceof LatLng) return { $latlng: [canonical(v.lat), canonical(v.lng)] };
  if (v instanceof BigDecimal) return { $decimal: v.value };
  // transit-js's own types, by their shape: the SDK bundles its own copy of transit-js.
  if ('low_' in v && 'high_' in v) return { $int: v.toString() };
  if ('tag' in v && 'rep' in v) {
    return v.tag === 'n' ? { $int: String(v.rep) } : { $tag: [v.tag, canonical(v.rep)] };
  }
  if ('str' in v && Object.keys(v).length === 1) return { $baretag: v.str };
  if ('_name' in v) return v._name; // a keyword or symbol the SDK's handlers left alone
  if (typeof v.forEach === 'function' && 'size' in v) {
    const pairs = [];
    v.forEach((val, k) => pairs.push([canonical(k), canonical(val)]));
    return { $map: pairs };
  }
  if (Object.getPrototypeOf(v) === Object.prototype) {
    return { $map: Object.entries(v).map(([k, val]) => [k, canonical(val)]) };
  }
  return { $unknown: String(v) };
};

const attempt = (fn) => {
  try {
    return fn();
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
};

const answer = (request) => {
  if (request.op === 'read') {
    return request.texts.map((text) => attempt(() => ({ ok: canonical(sdk.transit.read(text)) })));
  }
  if (request.op === 'write') {
    const w = request.verbose ? writers.verbose : writers.compact;
    return request.values.map((v) =>
      attempt(() => ({ ok: w.write(revive(v)), sdk: request.verbose ? null : sdkWrite(v) })));
  }
  throw new Error(`unknown op ${request.op}`);
};

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + '\n');
});
