import { RETRY_AFTER_UNAVAILABLE_SECONDS } from "../../schemas/errors.ts";
import {
  type MetStandinMode,
  RATE_LIMITED_RETRY_AFTER_SECONDS,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from "./met-standin.ts";

/**
 * The weather fault matrix: every provider fault against every cache state, for both views and both audiences, with
 * what the contract (docs/api.md "Weather", spec "Weather payload cache lifecycle", "Errors" and "Limits") says the HTTP
 * answer must be. The numbers below are copied from the contract on purpose, not imported from server/: the matrix
 * checks the server against the contract, so it must not inherit the server's own idea of it.
 */

export type View = "current" | "forecast";
export type Audience = "credentialed" | "public";
export type CacheState = "no copy" | "fresh copy" | "expired copy within max stale age" | "copy past max stale age";

interface ViewContract {
  ttlMinS: number;
  ttlMaxS: number;
  /** TTL when MET sends no Expires: spec "Limits" builds the stale maxima from it (10 min + 6 h, 1 h + 24 h). */
  defaultTtlS: number;
  maxStaleS: number;
}

export const CONTRACT: Readonly<Record<View, ViewContract>> = {
  current: { ttlMinS: 5 * 60, ttlMaxS: 60 * 60, defaultTtlS: 10 * 60, maxStaleS: 22_200 },
  forecast: { ttlMinS: 15 * 60, ttlMaxS: 6 * 60 * 60, defaultTtlS: 60 * 60, maxStaleS: 90_000 },
};

/** Expires minus Date in the stand-in's recorded MET headers (12:16:23 - 11:44:31): inside both views' clamps. */
export const RECORDED_EXPIRES_AFTER_S = 31 * 60 + 52;
const PAST_EXPIRES_AFTER_S = -60 * 60;

/** The copy's age when the faulted request arrives: each state sits one second inside or outside its boundary. */
export function copyAgeSeconds(state: CacheState, view: View): number | null {
  const { maxStaleS } = CONTRACT[view];
  switch (state) {
    case "no copy":
      return null;
    case "fresh copy":
      return 10 * 60; // well inside the recorded Expires of the priming answer
    case "expired copy within max stale age":
      return maxStaleS - 1;
    case "copy past max stale age":
      return maxStaleS + 1;
  }
}

/** What the provider's answer amounts to, as the contract sees it. */
type Effect =
  /** MET answers usably: a 304 to a conditional request (copy held) or a new payload; Expires as given. */
  | { kind: "answer"; toConditional: "304" | "200"; expires: "recorded" | "absent" | "past" }
  /** MET fails: the contract's error, or a stale copy when one is servable. */
  | { kind: "failure"; code: UpstreamCode; retryAfter: string | null }
  /** 304 whatever was asked: a valid revalidation when a copy is held, an unusable answer when none is. */
  | { kind: "304 regardless" };

type UpstreamCode =
  | "UPSTREAM_TIMEOUT"
  | "UPSTREAM_PAYLOAD_TOO_LARGE"
  | "UPSTREAM_INVALID_PAYLOAD"
  | "UPSTREAM_UNAVAILABLE";

const STATUS_OF: Record<UpstreamCode, number> = {
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_PAYLOAD_TOO_LARGE: 502,
  UPSTREAM_INVALID_PAYLOAD: 502,
  UPSTREAM_UNAVAILABLE: 503,
};

/** Retry-After is sent with 503 only (spec "Errors"): MET's own value when it gave one, else the service's default. */
const unavailable = (retryAfterSeconds = RETRY_AFTER_UNAVAILABLE_SECONDS): Effect => ({
  kind: "failure",
  code: "UPSTREAM_UNAVAILABLE",
  retryAfter: String(retryAfterSeconds),
});
const invalidPayload: Effect = { kind: "failure", code: "UPSTREAM_INVALID_PAYLOAD", retryAfter: null };
const timeout: Effect = { kind: "failure", code: "UPSTREAM_TIMEOUT", retryAfter: null };

export interface Fault {
  name: string;
  mode: MetStandinMode;
  effect: Effect;
}

export const FAULTS: readonly Fault[] = [
  {
    name: "normal answer (control)",
    mode: "normal",
    effect: { kind: "answer", toConditional: "304", expires: "recorded" },
  },
  { name: "timeout (hang)", mode: "hang", effect: timeout },
  { name: "connection reset mid-body", mode: "reset-mid-body", effect: unavailable() },
  { name: "429 with Retry-After", mode: "throttled", effect: unavailable(RATE_LIMITED_RETRY_AFTER_SECONDS) },
  { name: "403", mode: "forbidden", effect: unavailable() },
  { name: "500", mode: "server-error", effect: unavailable() },
  { name: "502", mode: "bad-gateway", effect: unavailable() },
  { name: "503", mode: "service-unavailable", effect: unavailable() },
  {
    name: "503 with Retry-After",
    mode: "service-unavailable-retry-after",
    effect: unavailable(UNAVAILABLE_RETRY_AFTER_SECONDS),
  },
  { name: "truncated body (invalid JSON)", mode: "invalid-json", effect: invalidPayload },
  { name: "wrong shape (valid JSON, not Locationforecast)", mode: "wrong-shape", effect: invalidPayload },
  {
    name: "oversized",
    mode: "oversized",
    effect: { kind: "failure", code: "UPSTREAM_PAYLOAD_TOO_LARGE", retryAfter: null },
  },
  { name: "dribbling body", mode: "dribble", effect: timeout },
  // MET's clock ahead of ours: its Last-Modified names a run we do not have, so the document is new to us.
  {
    name: "Last-Modified in the future",
    mode: "last-modified-future",
    effect: { kind: "answer", toConditional: "200", expires: "recorded" },
  },
  {
    name: "no Expires header",
    mode: "no-expires",
    effect: { kind: "answer", toConditional: "304", expires: "absent" },
  },
  {
    name: "Expires in the past",
    mode: "expires-past",
    effect: { kind: "answer", toConditional: "304", expires: "past" },
  },
  { name: "304 without a copy", mode: "not-modified-always", effect: { kind: "304 regardless" } },
];

export const CACHE_STATES: readonly CacheState[] = [
  "no copy",
  "fresh copy",
  "expired copy within max stale age",
  "copy past max stale age",
];
export const VIEWS: readonly View[] = ["current", "forecast"];
export const AUDIENCES: readonly Audience[] = ["credentialed", "public"];

/** What one cell's faulted request must produce, and how long what it stored must stay fresh. */
export interface Outcome {
  status: number;
  code: string | null;
  retryAfter: string | null;
  meta: { cached: boolean; cacheAgeSeconds: number; stale: boolean; degraded: boolean } | null;
  /** Requests MET received for the faulted request itself. */
  providerCalls: number;
  /** Probed only where the faulted request stored or confirmed a copy: "N s", or "under N s" / "over N s". */
  freshFor: string | null;
}

export interface Cell {
  name: string;
  fault: Fault;
  state: CacheState;
  view: View;
  audience: Audience;
}

export function cells(): Cell[] {
  return FAULTS.flatMap((fault) =>
    CACHE_STATES.flatMap((state) =>
      VIEWS.flatMap((view) =>
        AUDIENCES.map((audience) => ({
          name: `${fault.name} × ${state} × ${view} (${audience})`,
          fault,
          state,
          view,
          audience,
        })),
      ),
    ),
  );
}

export function expectedOutcome({ fault, state, view }: Cell): Outcome {
  const age = copyAgeSeconds(state, view);
  const contract = CONTRACT[view];
  // A fresh copy is served from the cache whatever MET would have said: MET is not asked.
  if (state === "fresh copy")
    return ok({ cached: true, cacheAgeSeconds: age!, stale: false, degraded: false }, 0, null);

  const effect: Effect =
    fault.effect.kind !== "304 regardless"
      ? fault.effect
      : age === null
        ? { kind: "failure", code: "UPSTREAM_INVALID_PAYLOAD", retryAfter: null } // nothing to revalidate
        : { kind: "answer", toConditional: "304", expires: "recorded" };

  if (effect.kind === "failure") {
    if (state === "expired copy within max stale age")
      return ok({ cached: true, cacheAgeSeconds: age!, stale: true, degraded: true }, 1, null);
    return {
      status: STATUS_OF[effect.code],
      code: effect.code,
      retryAfter: effect.retryAfter,
      meta: null,
      providerCalls: 1,
      freshFor: null,
    };
  }
  if (effect.kind !== "answer") throw new Error("unreachable");

  // 304 keeps the payload and resets its age to 0; a new payload replaces it. Either way MET answered: not stale.
  const revalidated = age !== null && effect.toConditional === "304";
  return ok(
    { cached: revalidated, cacheAgeSeconds: 0, stale: false, degraded: false },
    1,
    `${ttlSeconds(effect.expires, revalidated, age, contract)} s`,
  );
}

function ok(meta: NonNullable<Outcome["meta"]>, providerCalls: number, freshFor: string | null): Outcome {
  return { status: 200, code: null, retryAfter: null, meta, providerCalls, freshFor };
}

/** The TTL rule: MET's Expires clamped to the view's bounds, the default when there is none. */
function ttlSeconds(
  expires: "recorded" | "absent" | "past",
  revalidated: boolean,
  age: number | null,
  contract: ViewContract,
): number {
  const clamp = (seconds: number) => Math.min(contract.ttlMaxS, Math.max(contract.ttlMinS, seconds));
  if (expires === "recorded") return clamp(RECORDED_EXPIRES_AFTER_S);
  if (expires === "past") return clamp(PAST_EXPIRES_AFTER_S);
  if (!revalidated) return contract.defaultTtlS;
  // A 304 updates only the headers it carries (RFC 9111 section 4.3.4): the copy keeps the Expires of the answer
  // that primed it, which lies `age - recorded` seconds in the past by now.
  return clamp(RECORDED_EXPIRES_AFTER_S - age!);
}
