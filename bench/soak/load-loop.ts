/**
 * The soak run's load: a fixed number of requests in flight, each one sent as soon as the previous one on its lane
 * has been answered and checked, until the deadline. Closed-loop on purpose: a soak run is about what the service does
 * over time, not about its peak rate, and a fixed number in flight keeps the pressure steady and bounded.
 */
import { Pool } from "undici";
import { checkAnswer, dataShape } from "./answer-checks.ts";
import type { Tally } from "./answer-tally.ts";
import type { GenerationTracker } from "./index-generations.ts";
import { nextRequest, type SoakRequest } from "./request-mix.ts";

/** Far past the service's MET time-out: a request still unanswered by then is a fault of the service, not MET's. */
const CLIENT_TIMEOUT_MS = 15_000;

export interface LoadOptions {
  serviceUrl: string;
  apiKey: string;
  inFlight: number;
  durationMs: number;
  random: () => number;
  baselineShapes: ReadonlyMap<string, string>;
  tally: Tally;
  generations: GenerationTracker;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Resolves once every lane has stopped: the deadline has passed and the last answers are in. */
export async function runLoad(options: LoadOptions): Promise<void> {
  const pool = new Pool(options.serviceUrl, {
    connections: options.inFlight,
    headersTimeout: CLIENT_TIMEOUT_MS,
    bodyTimeout: CLIENT_TIMEOUT_MS,
  });
  const deadline = performance.now() + options.durationMs;

  async function ask(request: SoakRequest): Promise<void> {
    const startedAt = performance.now();
    try {
      const response = await pool.request({
        method: "GET",
        path: request.pathAndQuery,
        headers: request.credentialed ? { "x-api-key": options.apiKey } : {},
      });
      const bodyText = await response.body.text();
      const completedAt = performance.now();
      const verdict = checkAnswer(
        {
          request,
          status: response.statusCode,
          requestIdHeader: header(response.headers, "x-request-id"),
          retryAfter: header(response.headers, "retry-after"),
          bodyText,
        },
        options.baselineShapes,
      );
      options.tally.answer(request.route, verdict.outcome, completedAt - startedAt, verdict.problems);
      if (verdict.generation !== null)
        options.generations.record(request.route, verdict.generation, startedAt, completedAt);
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      options.tally.transportError(request.route, message, performance.now() - startedAt);
    }
  }

  async function lane(): Promise<void> {
    while (performance.now() < deadline) await ask(nextRequest(options.random));
  }

  try {
    await Promise.all(Array.from({ length: options.inFlight }, lane));
  } finally {
    await pool.close();
  }
}

/** One answer per route answered from a published file, before any load: the structure every later answer must keep. */
export async function takeBaseline(
  serviceUrl: string,
  apiKey: string,
  requests: readonly SoakRequest[],
): Promise<Map<string, string>> {
  const shapes = new Map<string, string>();
  for (const request of requests) {
    const response = await fetch(`${serviceUrl}${request.pathAndQuery}`, {
      headers: request.credentialed ? { "x-api-key": apiKey } : {},
    });
    const body = (await response.json()) as { data?: unknown };
    if (response.status !== 200)
      throw new Error(
        `baseline: ${request.route} answered ${response.status} before any load: ${JSON.stringify(body).slice(0, 300)}`,
      );
    shapes.set(request.pathAndQuery, dataShape(body.data));
  }
  return shapes;
}
