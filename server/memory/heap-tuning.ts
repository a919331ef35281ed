import { setFlagsFromString } from "node:v8";

/**
 * The Node options the serving process is started with (deploy/'s units and image, the benchmark). V8 sizes its
 * young generation only when the process starts, so `tuneHeapForServing` cannot do this: it has to be on the command
 * line or in NODE_OPTIONS. Under any steady load V8 grows the young generation to its default 16 MB semi-spaces,
 * 32 MB committed, while a request server keeps well under 1 MB of it alive across a collection; 4 MB semi-spaces
 * took 12-19 MB off the resident memory after the 10,000-point warm-up (README, Performance).
 */
export const SERVING_NODE_OPTIONS = "--max-semi-space-size=4";

/**
 * V8 settings for the serving process, applied at `service serve` before it serves. Each was measured with
 * `--trace-gc` / `--trace-gc-nvp` against a server that had warmed 3,000-10,000 weather points (README, Performance).
 */
export function tuneHeapForServing(): void {
  // Requests that wait on MET (a cold point takes hundreds of milliseconds) keep their objects alive across several
  // young-generation collections. V8 then judges the allocation sites of request handling (Node's HTTP, srvx, h3, this
  // pipeline) long-lived and allocates their objects straight in the old generation from then on ("allocation-site
  // pretenuring"). Every later request, however quick, then leaves its objects there: each young collection promoted
  // about 2 MB (26 KB on a fresh server), pauses grew from about 1 ms to 4-25 ms, and small answers were served at half
  // the rate. A server's request objects die young whatever one request waited, so the heuristic only costs it.
  setFlagsFromString("--no-allocation-site-pretenuring");
}
