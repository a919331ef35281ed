import {
  fetchLimited,
  headerValue,
  type LimitedRequest,
  type LimitOptions,
  retryAfterMs,
  UpstreamRequestError,
} from "../../server/upstream/fetch-limited.ts";

export interface FetchedDocument {
  url: string;
  status: number;
  body: Buffer;
  etag: string | null;
  lastModified: string | null;
}

export interface PoliteOptions extends LimitOptions {
  /** Attempts after the first, for network failures, 429 and 5xx. */
  retries: number;
  sleep?: (ms: number) => Promise<void>;
}

const RETRYABLE_STATUS = (status: number) => status === 429 || status >= 500;

/**
 * The publisher answered that it has no such document (a 4xx other than 429: an unknown series key, a bad query):
 * the publisher is well, this one request is not.
 */
export class DocumentRefusedError extends UpstreamRequestError {
  constructor(message: string) {
    super("http-status", message);
    this.name = "DocumentRefusedError";
  }
}

/**
 * The publisher answered 429 or 503 with a Retry-After this run did not wait out (longer than a run waits, or after
 * its last attempt): the run records it (source-waits.ts) so that the next due runs do not ask before it has passed.
 */
export class PublisherAskedToWaitError extends UpstreamRequestError {
  readonly waitMs: number;
  constructor(message: string, waitMs: number) {
    super("http-status", `${message}, asking to wait ${Math.ceil(waitMs / 1000)} s (Retry-After)`);
    this.name = "PublisherAskedToWaitError";
    this.waitMs = waitMs;
  }
}

/** The longest a run waits between attempts; a publisher that asks for longer is not asked again in this run. */
const MAX_RETRY_WAIT_MS = 30_000;

/** Fetches a publisher document politely: identified, bounded, retried with back-off (honouring Retry-After). */
export async function fetchDocument(target: LimitedRequest, options: PoliteOptions): Promise<FetchedDocument> {
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt++) {
    let waitMs = 1000 * 2 ** attempt;
    try {
      const response = await fetchLimited(target, options);
      if (response.status >= 200 && response.status < 300) {
        return {
          url: target.url,
          status: response.status,
          body: response.body,
          etag: headerValue(response.headers, "etag"),
          lastModified: headerValue(response.headers, "last-modified"),
        };
      }
      const message = `${new URL(target.url).host} answered HTTP ${response.status}`;
      if (!RETRYABLE_STATUS(response.status)) throw new DocumentRefusedError(message);
      const asked = retryAfterMs(headerValue(response.headers, "retry-after"));
      if (asked !== null && asked > 0 && (asked > MAX_RETRY_WAIT_MS || attempt >= options.retries))
        throw new PublisherAskedToWaitError(message, asked);
      if (attempt >= options.retries) throw new UpstreamRequestError("http-status", message);
      if (asked !== null && asked > 0) waitMs = asked;
    } catch (error) {
      const retryable =
        error instanceof UpstreamRequestError && (error.failure === "unavailable" || error.failure === "timeout");
      if (!retryable || attempt >= options.retries) throw error;
    }
    await sleep(Math.min(waitMs, MAX_RETRY_WAIT_MS));
  }
}
