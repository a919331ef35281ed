import { ApiError } from "../http/api-error.ts";
import type { IndexStorage, OpenIndex } from "../storage/index-storage.ts";

/** The published index for one request, or the contract's 503 when there is none (never an empty 200). */
export function requireIndex(storage: IndexStorage): OpenIndex {
  const index = storage.current();
  if (!index?.facts.lastIngestedAt) throw new ApiError("SERVICE_UNAVAILABLE");
  return index;
}

/**
 * A read that fails on a present index (a damaged file, an index an older version published) is STORAGE_UNAVAILABLE,
 * not INTERNAL; what failed goes with it as its cause, for the operator's log.
 */
export function readIndex<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError("STORAGE_UNAVAILABLE", undefined, { cause: error });
  }
}
