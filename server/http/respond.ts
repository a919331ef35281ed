import { createHash } from "node:crypto";
import { RESPONSE_CEILING_BYTES } from "../../schemas/limits.ts";
import type { ApiError } from "./api-error.ts";
import type { RouteResult } from "./route-handler.ts";

/** The freshness fields every success body carries; routes that serve cached data override them. */
export function baseMeta(requestId: string, now: number): Record<string, unknown> {
  return {
    requestId,
    generatedAt: new Date(now).toISOString(),
    cached: false,
    cacheAgeSeconds: 0,
    stale: false,
    degraded: false,
  };
}

export interface SerialisedSuccess {
  body: string;
  data: unknown;
  status: number;
}

/** The `{ data, meta }` body, cut to fit the response ceiling when the route says how (spec "Limits"). */
export function serialiseSuccess(result: RouteResult, meta: Record<string, unknown>): SerialisedSuccess {
  const status = result.status ?? 200;
  if (result.bare) return { body: JSON.stringify(result.data), data: result.data, status };
  // A page that could be cut says whether it was, so clients can tell "not cut" from "not a paged answer".
  const whole = JSON.stringify({ data: result.data, meta: { ...meta, ...result.meta, ...(result.cut ? { truncated: false } : {}) } });
  if (Buffer.byteLength(whole) <= RESPONSE_CEILING_BYTES || !result.cut) return { body: whole, data: result.data, status };

  const render = (n: number) => {
    const kept = result.cut!.keep(n);
    return { data: kept.data, status, body: JSON.stringify({ data: kept.data, meta: { ...meta, ...kept.meta, truncated: true } }) };
  };
  let low = 0;
  let high = result.cut.count - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(render(middle).body) <= RESPONSE_CEILING_BYTES) low = middle;
    else high = middle - 1;
  }
  return render(low);
}

export function serialiseError(error: ApiError, requestId: string): string {
  return JSON.stringify({ error: { code: error.code, message: error.message, requestId } });
}

/** A weak validator over the `data` section only, so a new requestId or generatedAt does not change it. */
export function weakEtag(data: unknown): string {
  return `W/"${createHash("sha256").update(JSON.stringify(data)).digest("base64url").slice(0, 27)}"`;
}

/** RFC 9110 weak comparison against an `If-None-Match` list. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}
