import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import S3rver from "s3rver";

/**
 * An S3-compatible store on 127.0.0.1 for the scale tests: s3rver (from npm) keeping its objects in a folder, run as
 * a child process so a test can kill it outright (SIGKILL) mid-download and start it again on the same folder and port.
 * On request (an IPC message) it stalls every download of an index file after its first bytes: a response that
 * starts and never finishes, the way a store failing mid-transfer looks to the downloader until the process dies.
 *
 * Environment: STANDIN_DIR (objects), STANDIN_BUCKET, STANDIN_PORT (0 picks one). Sends `{ port }` once listening.
 */
const directory = required("STANDIN_DIR");
const bucket = required("STANDIN_BUCKET");
const port = Number(process.env.STANDIN_PORT ?? "0");

const INDEX_OBJECT = /\/index\/[0-9a-f]{64}\.sqlite(\?|$)/;
let stallAfterBytes: number | null = null;

const store = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket }] });
await store.configureBuckets();
const handle = store.getMiddleware();
const server = createServer((request, response) => {
  if (stallAfterBytes !== null && request.method === "GET" && INDEX_OBJECT.test(request.url ?? ""))
    holdAfter(response, stallAfterBytes);
  handle(request, response);
});
server.listen(port, "127.0.0.1", () => process.send!({ port: (server.address() as AddressInfo).port }));

process.on("message", (message: { stallAfterBytes: number | null }) => {
  stallAfterBytes = message.stallAfterBytes;
  process.send!({ stallAfterBytes });
});

/** Lets the first `limit` bytes of the body out, then nothing more and no end: the download hangs, the socket stays open. */
function holdAfter(response: ServerResponse, limit: number): void {
  let sent = 0;
  const write = response.write.bind(response) as (chunk: Buffer) => boolean;
  response.write = ((chunk: Buffer) => {
    if (sent >= limit) return false;
    sent += chunk.length;
    return write(chunk);
  }) as typeof response.write;
  response.end = (() => response) as typeof response.end;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}
