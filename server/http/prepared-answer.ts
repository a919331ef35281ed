// An answer serialised once, but for the two members each response has of its own (envelope.ts writes them).
import { randomUUID } from "node:crypto";
import { RESPONSE_CEILING_BYTES } from "../../schemas/limits.ts";
import type { FirstItems, RouteResult } from "./route-handler.ts";
import { SerialisedSection } from "./serialised-section.ts";

/** The freshness fields after `requestId` and `generatedAt`; routes serving cached data override them. */
const BASE_FRESHNESS = { cached: false, cacheAgeSeconds: 0, stale: false, degraded: false } as const;

/**
 * A success answer serialised but for `requestId` and `generatedAt` (meta's first two), which renderAnswer splices in.
 */
export interface PreparedAnswer {
  status: number;
  data: SerialisedSection;
  /** `meta` after its first two fields, from the comma through the closing braces of meta and body; empty when bare. */
  metaRest: string;
  bare: boolean;
  /** UTF-8 bytes of its body but for the two per-response fields (ownMembers). */
  fixedBytes: number;
  /** Bytes the answer holds, for memory bounds. */
  size: number;
  /** Of another representation than the route's own (the CSV form, csv-answer.ts). */
  mediaType?: string;
  headers?: Readonly<Record<string, string>>;
}

// Same lengths as real values, so that the cut to the response ceiling is measured on the body that will be sent.
const PLACEHOLDER_OWN_MEMBERS_LENGTH = ownMembers(randomUUID(), new Date(0).toISOString()).length;

/** The `{ data, meta }` answer, cut to fit the response ceiling when the route says how (spec "Limits"). */
export function prepareAnswer(result: RouteResult, shape: { bare?: boolean; successStatus?: number }): PreparedAnswer {
  const status = shape.successStatus ?? 200;
  const bare = shape.bare ?? false;
  const prepare = ({ data, meta: routeMeta }: FirstItems, truncated: boolean | null): PreparedAnswer => {
    const serialised = data instanceof SerialisedSection ? data : new SerialisedSection(JSON.stringify(data));
    if (bare) return bareAnswer(serialised, status);
    if (routeMeta && ("requestId" in routeMeta || "generatedAt" in routeMeta))
      throw new Error("a route's meta must not replace requestId or generatedAt");
    // A page that could be cut says whether it was, so clients can tell "not cut" from "not a paged answer".
    const meta = { ...BASE_FRESHNESS, ...routeMeta, ...(truncated === null ? {} : { truncated }) };
    const members = JSON.stringify(meta).slice(1, -1);
    const metaRest = `,${members}${result.staticMeta ? `,${result.staticMeta.members}` : ""}}}`;
    const fixedBytes = BODY_HEAD.length + serialised.byteLength + Buffer.byteLength(metaRest);
    return { status, data: serialised, metaRest, bare, fixedBytes, size: serialised.byteLength + metaRest.length };
  };
  return fittedToCeiling(prepare(result, result.cut ? false : null), result.cut, (first) => prepare(first, true));
}

/** An answer whose body is the section alone, no envelope: a bare route's, or another representation's (CSV). */
export function bareAnswer(
  section: SerialisedSection,
  status: number,
  representation?: Pick<PreparedAnswer, "mediaType" | "headers">,
): PreparedAnswer {
  const size = section.byteLength;
  return { status, data: section, metaRest: "", bare: true, fixedBytes: size, size, ...representation };
}

/**
 * The answer, or when over the response ceiling and its route says how to cut it, its longest first part that fits
 * (JSON and CSV alike). At least one entry is served, over the ceiling if need be: an empty page's cursor never moves.
 */
export function fittedToCeiling(
  whole: PreparedAnswer,
  cut: RouteResult["cut"],
  build: (first: FirstItems) => PreparedAnswer,
): PreparedAnswer {
  if (!cut || fits(whole)) return whole;
  const firstOf = (n: number) => build(cut.firstItems(n));
  let low = Math.min(1, cut.count);
  let high = cut.count - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(firstOf(middle))) low = middle;
    else high = middle - 1;
  }
  return firstOf(low);
}

/** Whether the answer's body, with its own two members where it has an envelope, is within the response ceiling. */
function fits(answer: PreparedAnswer): boolean {
  return answer.fixedBytes + (answer.bare ? 0 : PLACEHOLDER_OWN_MEMBERS_LENGTH) <= RESPONSE_CEILING_BYTES;
}

/** What an envelope opens with, before its `data` section. */
export const BODY_HEAD = `{"data":`;

/** The two `meta` fields of one response, which open `meta` (both values are ASCII). */
export function ownMembers(requestId: string, generatedAt: string): string {
  return `,"meta":{"requestId":"${requestId}","generatedAt":"${generatedAt}"`;
}
