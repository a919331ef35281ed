import { parentPort } from "node:worker_threads";
import type { DocumentRequest, DocumentWorkerMessage } from "./document-worker-protocol.ts";
import { createMetClient } from "./met-client.ts";
import { parseMetDocument } from "./met-document.ts";
import { normaliseMetDocument } from "./normalise.ts";
import { type PackedPayload, packPayload } from "./stored-payload.ts";
import { unusableForecast, WeatherUpstreamError } from "./upstream-error.ts";

/**
 * The thread that asks MET for documents and reads them (exchange, gunzip, JSON, normalising, deflating): the serving
 * thread receives a few kilobytes per point. Read there, a document's hundreds of kilobytes of short-lived objects grew
 * its heap and allocator arena to several times what it keeps (docs/performance.md).
 */
const port = parentPort;
if (!port) throw new Error("document-worker.ts runs as a worker thread (document-worker-client.ts starts it)");

const send = (message: DocumentWorkerMessage) => port.postMessage(message);

port.on("message", (request: DocumentRequest) => {
  void answer(request).then(send);
});

async function answer({ id, client, request }: DocumentRequest): Promise<DocumentWorkerMessage> {
  try {
    // Reported when the call ends, not with the answer: reading may still fail, and the request counts all the same.
    const met = createMetClient({ ...client, recordCall: (call) => send({ id, call }) });
    const result = await met.fetchLocation(request);
    return { id, result: result.kind === "not-modified" ? result : { ...result, body: pack(result.body) } };
  } catch (error) {
    if (error instanceof WeatherUpstreamError) {
      const { code, message, retryAfterMs, underlying } = error;
      return { id, failure: { code, message, retryAfterMs, underlying } };
    }
    const defect = error instanceof Error ? error : new Error(String(error));
    return { id, defect: { message: defect.message, stack: defect.stack } };
  }
}

function pack(document: unknown): PackedPayload {
  try {
    return packPayload(normaliseMetDocument(parseMetDocument(document)));
  } catch {
    throw unusableForecast();
  }
}
