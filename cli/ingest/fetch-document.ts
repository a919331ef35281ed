import {
  fetchLimited,
  headerValue,
  type LimitedRequest,
  type LimitOptions,
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
      const failure = RETRYABLE_STATUS(response.status)
        ? new UpstreamRequestError("http-status", message)
        : new DocumentRefusedError(message);
      if (!RETRYABLE_STATUS(response.status) || attempt >= options.retries) throw failure;
      const retryAfter = Number(headerValue(response.headers, "retry-after"));
      if (Number.isFinite(retryAfter) && retryAfter > 0) waitMs = retryAfter * 1000;
    } catch (error) {
      const retryable =
        error instanceof UpstreamRequestError && (error.failure === "unavailable" || error.failure === "timeout");
      if (!retryable || attempt >= options.retries) throw error;
    }
    await sleep(Math.min(waitMs, MAX_RETRY_WAIT_MS));
  }
}
