/** Judges one answer of the soak run against the contract and against what the run knows must hold. */
import { assertContract } from "../../test/support/contract.ts";
import type { SoakRequest } from "./request-mix.ts";

export type ProblemKind =
  /** A 5xx that is not one of the documented upstream failures. */
  | "unexpected-5xx"
  /** A route answered from a published file gave anything but a complete answer: what a half-published file would cause. */
  | "published-file-answer"
  /** The body breaks the route's JSON Schema, or its request id differs from X-Request-Id. */
  | "contract"
  /** A status the mix never provokes (4xx, 3xx), so a fault of the run or of the service. */
  | "unexpected-status";

export interface Problem {
  kind: ProblemKind;
  detail: string;
}

export interface Verdict {
  /** What the answer is counted as: its status, its error code if any, and "stale" for a stale copy served by weather. */
  outcome: string;
  /** `meta.lastIngestedAt` of a success that carries it: which index generation answered. */
  generation: string | null;
  problems: Problem[];
}

export interface ReceivedAnswer {
  request: SoakRequest;
  status: number;
  requestIdHeader: string | undefined;
  retryAfter: string | undefined;
  bodyText: string;
}

/**
 * The upstream failures docs/api.md documents for the weather routes: each is MET's failure passed on honestly, not
 * the service's own. A 503 with Retry-After is also how storage routes say the index is missing, which the run
 * judges separately (a published-file route must never say it).
 */
function documented5xx(status: number, code: string | null, retryAfter: string | undefined): boolean {
  if (status === 502) return code === "UPSTREAM_INVALID_PAYLOAD" || code === "UPSTREAM_PAYLOAD_TOO_LARGE";
  if (status === 504) return code === "UPSTREAM_TIMEOUT";
  if (status === 503) return retryAfter !== undefined && /^\d+$/.test(retryAfter.trim());
  return false;
}

/**
 * The structure of `data` without its values: keys, nested keys and array lengths, three levels deep. Every ingestion
 * run replays the same archive, so a route's structure is the same in every index generation; a half-written or
 * half-read index would show as a different one even where every value is well-formed. Leaves are not told apart
 * (a time that was null becomes a string once weather has answered: the status route's data, not its structure).
 */
export function dataShape(data: unknown, depth = 3): string {
  if (Array.isArray(data)) return `[${data.length}]`;
  if (data === null || typeof data !== "object") return "·";
  if (depth === 0) return "{…}";
  const entries = Object.entries(data as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
  return `{${entries.map(([key, value]) => `${key}:${dataShape(value, depth - 1)}`).join(",")}}`;
}

function parse(text: string): { body?: unknown; error?: string } {
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** `baselineShapes` holds dataShape() of each published-file route's answer before the load began. */
export function checkAnswer(answer: ReceivedAnswer, baselineShapes: ReadonlyMap<string, string>): Verdict {
  const { request, status } = answer;
  const problems: Problem[] = [];
  const parsed = parse(answer.bodyText);
  if (parsed.error !== undefined) {
    problems.push({ kind: "contract", detail: `${request.route}: ${status} body is not JSON (${parsed.error})` });
    if (status >= 500)
      problems.push({ kind: "unexpected-5xx", detail: `${request.route}: ${status} without a JSON error body` });
    return { outcome: `${status} (no JSON body)`, generation: null, problems };
  }
  const body = parsed.body as {
    data?: unknown;
    meta?: Record<string, unknown>;
    error?: { code?: unknown; requestId?: unknown };
  };
  const code = typeof body.error?.code === "string" ? body.error.code : null;
  const outcome = code !== null ? `${status} ${code}` : body.meta?.stale === true ? `${status} stale` : String(status);

  const url = new URL(request.pathAndQuery, "http://soak");
  try {
    assertContract("GET", url, status, body);
  } catch (error) {
    problems.push({
      kind: "contract",
      detail: `${request.route}: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  const bodyRequestId = status >= 400 ? body.error?.requestId : body.meta?.requestId;
  if (answer.requestIdHeader === undefined || bodyRequestId !== answer.requestIdHeader) {
    problems.push({
      kind: "contract",
      detail: `${request.route}: X-Request-Id ${answer.requestIdHeader} but body says ${String(bodyRequestId)}`,
    });
  }

  if (status >= 500 && !documented5xx(status, code, answer.retryAfter)) {
    problems.push({
      kind: "unexpected-5xx",
      detail: `${request.route}: ${status} ${code} (Retry-After ${answer.retryAfter ?? "absent"})`,
    });
  } else if (status !== 200 && status < 500) {
    problems.push({ kind: "unexpected-status", detail: `${request.route}: ${status} ${code}` });
  }

  let generation: string | null = null;
  if (request.fromPublishedFile) {
    if (status !== 200) {
      problems.push({
        kind: "published-file-answer",
        detail: `${request.route}: ${status} ${code} while the file was published throughout`,
      });
    } else {
      const meta = body.meta ?? {};
      if ("lastIngestedAt" in meta) {
        if (typeof meta.lastIngestedAt === "string") generation = meta.lastIngestedAt;
        else
          problems.push({
            kind: "published-file-answer",
            detail: `${request.route}: meta.lastIngestedAt is ${String(meta.lastIngestedAt)}`,
          });
      }
      const shape = dataShape(body.data);
      const expected = baselineShapes.get(request.pathAndQuery);
      if (expected !== undefined && shape !== expected) {
        problems.push({
          kind: "published-file-answer",
          detail: `${request.route}: data ${shape.slice(0, 200)} differs from the baseline ${expected.slice(0, 200)}`,
        });
      }
    }
  }
  return { outcome, generation, problems };
}
