// Runs s3rver under node for tests (under bun its ListObjectsV2 came back unsorted).
// argv: <directory> <bucket>. Prints one JSON line {"port": N} once listening; exits when stdin closes,
// so the server never outlives the test process that started it.
// Start it with --openssl-legacy-provider: s3rver encrypts ListObjectsV2 continuation tokens with DES.
"use strict";
const S3rver = require("s3rver");

if (typeof Bun !== "undefined") {
  console.error("s3rver-main.cjs must run under node, not bun");
  process.exit(2);
}

const [directory, bucket] = process.argv.slice(2);
if (!directory || !bucket) {
  console.error("usage: node s3rver-main.cjs <directory> <bucket>");
  process.exit(2);
}

const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  directory,
  silent: true,
  configureBuckets: [{ name: bucket }],
});

server.run().then(
  (address) => process.stdout.write(JSON.stringify({ port: address.port }) + "\n"),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

const shutdown = () => {
  // close() waits for open keep-alive connections; do not let one hold the process.
  setTimeout(() => process.exit(0), 1000).unref();
  server.close().finally(() => process.exit(0));
};
process.stdin.on("end", shutdown);
process.stdin.on("error", shutdown);
process.stdin.resume();
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
