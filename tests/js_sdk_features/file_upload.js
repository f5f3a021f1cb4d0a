// Uploads a file's bytes with the official SDK's file helper (sharetribe-flex-sdk
// `file.upload`, 1.24) to the upload targets read as JSON from stdin:
//   [{"method", "url", "headers", "path"}]
// (the file read into a Buffer, as a server-side caller would give it), and prints, for each,
// the status the storage answered and the progress events' loaded and total.
const fs = require('fs');
const sharetribeSdk = require('sharetribe-flex-sdk');

(async () => {
  const targets = JSON.parse(fs.readFileSync(0, 'utf8'));
  const out = [];
  for (const t of targets) {
    const events = [];
    const res = await sharetribeSdk.file.upload({
      method: t.method,
      url: t.url,
      headers: t.headers,
      file: fs.readFileSync(t.path),
      onUploadProgress: (e) => events.push({ loaded: e.loaded, total: e.total }),
    });
    out.push({ status: res.status, events });
  }
  process.stdout.write(JSON.stringify(out));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
