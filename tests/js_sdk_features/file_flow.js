// The official SDK's whole upload flow, as its guide writes it, against a marketplace
// (argv: base URL, client ID, user name, password, file path): log in, ownFiles.create with
// the file's metadata, fileUploads.create, file.upload of the bytes. Prints the file's ID,
// the upload target's method and headers, and the progress events.
const fs = require('fs');
const path = require('path');
const sharetribeSdk = require('sharetribe-flex-sdk');

const [baseUrl, clientId, username, password, filePath] = process.argv.slice(2);

(async () => {
  const sdk = sharetribeSdk.createInstance({
    clientId, baseUrl, tokenStore: sharetribeSdk.tokenStore.memoryStore(),
  });
  await sdk.login({ username, password });
  const bytes = fs.readFileSync(filePath);
  const metadata = sharetribeSdk.file.metadata({
    name: path.basename(filePath), type: 'application/pdf', size: bytes.length,
  });
  const own = await sdk.ownFiles.create(metadata);
  const fileId = own.data.data.id;
  const target = await sdk.fileUploads.create({ fileId });
  const { method, url, headers } = target.data.data.attributes;
  const events = [];
  const res = await sharetribeSdk.file.upload({
    method, url, headers, file: bytes, onUploadProgress: (e) => events.push(e.loaded),
  });
  process.stdout.write(JSON.stringify({
    fileId: fileId.uuid, status: res.status, method, headers, loaded: events[events.length - 1],
  }));
})().catch((e) => {
  console.error(e && e.response ? JSON.stringify(e.response.data) : e);
  process.exit(1);
});
