import type { ServerResponse } from "node:http";

/**
 * The failures a flaky stand-in MET mixes into its answers (the `flaky` option of met-standin.ts), for soak runs: each
 * is one way the real MET, or the network on the way to it, lets a client down. None of them is MET's own refusal of a
 * bad request; those stay in met-standin.ts and are never random.
 */
const MET_FAULT_KINDS = [
  /** 500 with a plain-text body, as MET answers when its backend fails. */
  "server-error",
  /** 429 with a short Retry-After: MET throttling the application; the service must pause every MET call for it. */
  "throttled",
  /** Accepts the request and answers nothing until `hangMs`, then drops the connection: past any sane client time-out. */
  "hang",
  /** 200 whose body ends half way, Content-Length matching the cut: a complete-looking answer that is not JSON. */
  "truncated-body",
  /** 200 announcing the whole body, half of it sent, then the connection dropped: a network cut mid-transfer. */
  "reset-mid-body",
] as const;

export type MetFaultKind = (typeof MET_FAULT_KINDS)[number];

export interface MetStandinFlakiness {
  /** Share of otherwise valid requests (0 to 1) answered with a fault, spread evenly over MET_FAULT_KINDS. */
  failureShare: number;
  /** How long a "hang" holds the request before dropping it; set it past the client's time-out. */
  hangMs: number;
  /** Retry-After of the 429 (seconds); default 2, short enough that a soak run sees many pauses end. */
  retryAfterSeconds?: number;
  /** Defaults to Math.random; a seeded generator makes a run's sequence of faults repeatable. */
  random?: () => number;
}

interface MetFaultPicker {
  /** The fault this request gets, or null for a normal answer. Counts what it picks. */
  pick(): MetFaultKind | null;
  served(): Record<MetFaultKind, number>;
}

export function createFaultPicker(flakiness: MetStandinFlakiness): MetFaultPicker {
  if (!(flakiness.failureShare >= 0 && flakiness.failureShare <= 1))
    throw new Error(`failureShare must lie in 0..1, not ${flakiness.failureShare}`);
  const random = flakiness.random ?? Math.random;
  const counts = Object.fromEntries(MET_FAULT_KINDS.map((kind) => [kind, 0])) as Record<MetFaultKind, number>;
  return {
    pick() {
      if (random() >= flakiness.failureShare) return null;
      const kind =
        MET_FAULT_KINDS[Math.min(MET_FAULT_KINDS.length - 1, Math.floor(random() * MET_FAULT_KINDS.length))]!;
      counts[kind] += 1;
      return kind;
    },
    served: () => ({ ...counts }),
  };
}

/** Answers `response` with the fault; `body` is the normal JSON answer, computed only when the fault needs it. */
export function serveFault(
  kind: MetFaultKind,
  response: ServerResponse,
  flakiness: MetStandinFlakiness,
  body: () => Buffer,
  notice: string,
): void {
  switch (kind) {
    case "server-error":
      return void response.writeHead(500, { "content-type": "text/plain" }).end(`Internal Server Error\n${notice}\n`);
    case "throttled":
      return void response
        .writeHead(429, { "content-type": "text/plain", "retry-after": String(flakiness.retryAfterSeconds ?? 2) })
        .end(`Too Many Requests\n${notice}\n`);
    case "hang": {
      // Bounded, so a soak run that stops asking leaves no request open for ever; unref'd so it never holds a process up.
      const timer = setTimeout(() => response.destroy(), flakiness.hangMs).unref();
      response.once("close", () => clearTimeout(timer));
      return;
    }
    case "truncated-body": {
      const whole = body();
      const half = whole.subarray(0, Math.floor(whole.length / 2));
      return void response
        .writeHead(200, {
          "content-type": "application/json",
          "content-length": String(half.length),
          "x-standin-notice": notice,
        })
        .end(half);
    }
    case "reset-mid-body": {
      const whole = body();
      response.writeHead(200, {
        "content-type": "application/json",
        "content-length": String(whole.length),
        "x-standin-notice": notice,
      });
      // Destroying once the half is flushed, rather than at once, so the client really receives a partial body.
      return void response.write(whole.subarray(0, Math.floor(whole.length / 2)), () => response.destroy());
    }
  }
}
