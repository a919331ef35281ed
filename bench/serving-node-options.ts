/**
 * The Node options recommended for the serving process (docs/performance.md, "Node options for serving"; deploy/'s
 * units and image set them, and the benchmark starts the server with them). V8 reads them only when the process
 * starts, so they are for the command line or NODE_OPTIONS, never for code.
 */

/** For NODE_OPTIONS: 4 MB semi-spaces keep a request server's young generation small. */
export const SERVING_NODE_OPTIONS = "--max-semi-space-size=4";

/**
 * For `node`'s command line before `cli/bin.js serve`: Node refuses V8's own flags in NODE_OPTIONS. Without
 * allocation-site pretenuring, requests waiting on MET do not make every later request's objects old-generation
 * garbage that only a full collection frees; with the old generation grown by 30 % of what is alive (V8 picks up to
 * 4x), the garbage requests and connections leave there is collected before it is tens of megabytes.
 */
export const SERVING_NODE_FLAGS: readonly string[] = ["--no-allocation-site-pretenuring", "--heap-growing-percent=30"];
