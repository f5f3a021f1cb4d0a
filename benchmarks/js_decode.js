// The official SDK's decode of a Transit body (its own reader), best of 15, in ms.
const fs = require('fs');
const { transit } = require('sharetribe-flex-sdk');
const text = fs.readFileSync(process.argv[2], 'utf8');
let best = Infinity;
for (let i = 0; i < 15; i += 1) {
  const t = process.hrtime.bigint();
  transit.read(text);
  best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6);
}
console.log(best.toFixed(3));
