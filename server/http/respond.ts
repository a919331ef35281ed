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
  /** The `data` section as serialised in the body: the weak ETag is computed over it. */
  dataText: string;
  status: number;
}

/** The `{ data, meta }` body, cut to fit the response ceiling when the route says how (spec "Limits"). */
export function serialiseSuccess(result: RouteResult, meta: Record<string, unknown>, shape: { bare?: boolean; successStatus?: number }): SerialisedSuccess {
  const status = shape.successStatus ?? 200;
  const render = (data: unknown, routeMeta: Record<string, unknown> | undefined, truncated: boolean | null) => {
    const dataText = JSON.stringify(data);
    if (shape.bare) return { body: dataText, dataText, status };
    // A page that could be cut says whether it was, so clients can tell "not cut" from "not a paged answer".
    const fullMeta = { ...meta, ...routeMeta, ...(truncated === null ? {} : { truncated }) };
    return { body: `{"data":${dataText},"meta":${JSON.stringify(fullMeta)}}`, dataText, status };
  };
  const whole = render(result.data, result.meta, result.cut ? false : null);
  if (Buffer.byteLength(whole.body) <= RESPONSE_CEILING_BYTES || !result.cut) return whole;

  const cut = result.cut;
  const keeping = (n: number) => {
    const kept = cut.keep(n);
    return render(kept.data, kept.meta, true);
  };
  let low = 0;
  let high = cut.count - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(keeping(middle).body) <= RESPONSE_CEILING_BYTES) low = middle;
    else high = middle - 1;
  }
  return keeping(low);
}

export function serialiseError(error: ApiError, requestId: string): string {
  return JSON.stringify({ error: { code: error.code, message: error.message, requestId } });
}

/** A weak validator over the serialised `data` section only, so a new requestId or generatedAt does not change it. */
export function weakEtag(dataText: string): string {
  return `W/"${createHash("sha256").update(dataText).digest("base64url").slice(0, 27)}"`;
}

/** RFC 9110 weak comparison against an `If-None-Match` list. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}
