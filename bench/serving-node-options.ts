/**
 * The Node options recommended for the serving process (docs/operations.md; deploy/'s units and image set them, and the
 * benchmark starts the server with them). V8 sizes its young generation only when the process starts, so this is for
 * the command line or NODE_OPTIONS, never for code: 4 MB semi-spaces keep a request server's young generation small
 * (docs/performance.md).
 */
export const SERVING_NODE_OPTIONS = "--max-semi-space-size=4";
