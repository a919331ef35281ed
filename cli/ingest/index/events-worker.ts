import { parentPort, workerData } from "node:worker_threads";
import { type EventsFileRequest, writeEventsFile } from "./publish-events.ts";

/**
 * The thread that writes the index's events (publish-events.ts), the shares of them it claims, while the publishing
 * thread writes the observations and then claims the rest (event-shares.ts). It answers once, with the release times
 * for `published_at`, and ends; a failure ends it with the error.
 */
const port = parentPort;
if (!port) throw new Error("events-worker.ts runs as a worker thread (publish-index.ts starts it)");
port.postMessage(writeEventsFile(workerData as EventsFileRequest));
