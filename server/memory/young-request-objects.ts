import { setFlagsFromString } from "node:v8";

/**
 * Turns off V8's allocation-site pretenuring for this process, before it serves.
 *
 * Requests that wait on MET (a cold point takes hundreds of milliseconds) keep their objects alive across several
 * young-generation collections. V8 then judges the allocation sites of request handling (Node's HTTP, srvx, h3, this
 * pipeline) long-lived and allocates their objects straight in the old generation from then on. Every later request,
 * however quick, then leaves its objects there: measured after warming 3,000 points, each young collection promoted
 * about 2 MB (26 KB on a fresh server), pauses grew from about 1 ms to 4-25 ms, and small answers were served at half
 * the rate. A server's request objects die young whatever one request waited, so the heuristic only costs it.
 */
export function keepRequestObjectsYoung(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
