import { type MetStandin, startMetStandin } from "./met-standin.ts";
import { fakeClock, type RunningService, startService } from "./service.ts";
import { type Cell, copyAgeSeconds, type Outcome } from "./weather-fault-matrix.ts";

/**
 * Runs one cell of the weather fault matrix through the real HTTP routes of a real service on a real port, and
 * reports what it observed in the matrix's terms. Every cell gets its own service, MET stand-in and fake clock:
 * MET's 429 pauses the whole process's provider calls (on real time), a cold point's failure is remembered for
 * 10 s, and any success shortens a failed point's wait, so cells sharing a service would depend on their order.
 */

const SECOND = 1000;
/** Oslo, at 4 decimals for the credentialed routes and 2 for the public ones (their precisions). */
const WHERE = { credentialed: "lat=59.9139&lon=10.7522", public: "lat=59.91&lon=10.75" } as const;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export async function runCell(cell: Cell, probeFreshFor: number | null): Promise<Outcome> {
  const clock = fakeClock();
  const met = await startMetStandin({ now: clock.now });
  const service = await startService({ clock, weatherBaseUrl: met.url });
  try {
    const ask = requester(service, cell);
    const age = copyAgeSeconds(cell.state, cell.view);
    if (age !== null) {
      const primed = await ask();
      if (primed.status !== 200) throw new Error(`priming the copy failed with ${primed.status}`);
      clock.advance(age * SECOND);
    }
    met.setMode(cell.fault.mode);
    const { answer, providerCalls } = await counted(met, ask);
    met.setMode("normal");
    const freshFor =
      probeFreshFor !== null && answer.status === 200
        ? await freshnessAround(probeFreshFor, ask, met, clock.advance)
        : null;
    return { ...observed(answer), providerCalls, freshFor };
  } finally {
    await service.close();
    await met.close();
  }
}

function requester(service: RunningService, { view, audience }: Cell): () => Promise<Answer> {
  if (audience === "public") return () => service.request(`/api/public/v1/weather/${view}?${WHERE.public}`);
  const key = service.createKey(["weather:read"]);
  return () =>
    service.request(`/api/v1/weather/${view}?${WHERE.credentialed}`, { headers: { authorization: `Bearer ${key}` } });
}

async function counted(
  met: MetStandin,
  ask: () => Promise<Answer>,
): Promise<{ answer: Answer; providerCalls: number }> {
  const before = met.requests;
  const answer = await ask();
  return { answer, providerCalls: met.requests - before };
}

function observed({ status, headers, body }: Answer): Omit<Outcome, "providerCalls" | "freshFor"> {
  const meta =
    status === 200 && body?.meta
      ? {
          cached: body.meta.cached,
          cacheAgeSeconds: body.meta.cacheAgeSeconds,
          stale: body.meta.stale,
          degraded: body.meta.degraded,
        }
      : null;
  return { status, code: body?.error?.code ?? null, retryAfter: headers.get("retry-after"), meta };
}

/**
 * Whether what the faulted request stored stays fresh exactly `seconds`: served from the cache with no MET call one
 * second before, and MET asked at that second. The clock is fake, so this costs two requests and no waiting.
 */
async function freshnessAround(
  seconds: number,
  ask: () => Promise<Answer>,
  met: MetStandin,
  advance: (ms: number) => void,
): Promise<string> {
  advance((seconds - 1) * SECOND);
  const justBefore = await counted(met, ask);
  if (justBefore.providerCalls > 0 || justBefore.answer.body?.meta?.cached !== true) return `under ${seconds} s`;
  advance(SECOND);
  const atExpiry = await counted(met, ask);
  return atExpiry.providerCalls === 1 ? `${seconds} s` : `over ${seconds} s`;
}
