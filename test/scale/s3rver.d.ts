// s3rver ships no types: the part of its API the object-store stand-in uses.
declare module "s3rver" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface S3rverOptions {
    directory: string;
    silent?: boolean;
    configureBuckets?: { name: string; configs?: string[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Creates the configured buckets in the directory (run() does this before listening). */
    configureBuckets(): Promise<void>;
    /** The request handler, for a server of the caller's own. */
    getMiddleware(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
