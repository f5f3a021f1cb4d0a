// Writes object query strings and query strings with the official SDK's own helpers
// (sharetribe-flex-sdk `util.objectQueryString` and `util.queryString`), for the cases
// read as JSON from stdin: [{"object": {...}} | {"query": {...}}, ...]. Prints one result per
// case: {"value": "..."} or {"error": "..."}.
const sdk = require('sharetribe-flex-sdk');

const revive = (value) => {
  if (Array.isArray(value)) return value.map(revive);
  if (value === null || typeof value !== 'object') return value;
  if ('$uuid' in value) return new sdk.types.UUID(value.$uuid);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v)]));
};

const input = require('fs').readFileSync(0, 'utf8');
const out = JSON.parse(input).map((c) => {
  try {
    if ('object' in c) return { value: sdk.util.objectQueryString(revive(c.object)) };
    return { value: sdk.util.queryString(revive(c.query)) };
  } catch (e) {
    return { error: String(e.message) };
  }
});
process.stdout.write(JSON.stringify(out));
