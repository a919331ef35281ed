// Every published value of one economic series, oldest first, from the weather and economics data service.
//
// Node.js 20 or newer, no dependency (its own fetch). Run with a TypeScript runner, e.g. from this repository:
//
//   SERVICE_URL=http://127.0.0.1:3000 npx tsx docs/examples/observations.ts us-unemployment-rate 2025-01
//
// Arguments: the series slug, the first reference period (optional), the page size (optional). Prints one line per
// reference period, "<period><TAB><value>", the value exactly as the publisher wrote it, then the publishers to credit.
// Values are decimal strings: compute with a decimal library (decimal.js), never Number, to keep them exact. On an
// error it prints the service's error code and message (branch on the code, never the message) and exits with 1.

const BASE_URL = (process.env.SERVICE_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, "");

interface Attribution {
  sourceId: string;
  required: boolean;
  licenseName: string;
  termsUrl: string;
}

interface ObservationsPage {
  data: { observations: { referencePeriod: string; value: string | null }[] };
  meta: { nextCursor: string | null; attributionRecords: Attribution[] };
}

interface ErrorBody {
  error: { code: string; message: string; requestId: string };
}

class ServiceError extends Error {}

/** One GET: the `{ data, meta }` body, or a ServiceError with the `{ error }` the service sent. */
async function get<T>(path: string, params: URLSearchParams): Promise<T> {
  const response = await fetch(`${BASE_URL}${path}?${params}`, { headers: { accept: "application/json" } });
  const body = (await response.json()) as T | ErrorBody;
  if (response.ok) return body as T;
  const { code, message, requestId } = (body as ErrorBody).error;
  const retry = response.headers.get("retry-after");
  throw new ServiceError(`${code}: ${message}${retry ? ` (retry after ${retry} s)` : ""} [request ${requestId}]`);
}

/** Every page, following meta.nextCursor until it is null. */
async function* pages(series: string, from?: string, limit?: string): AsyncGenerator<ObservationsPage> {
  const params = new URLSearchParams({ series });
  if (from) params.set("from", from);
  if (limit) params.set("limit", limit);
  for (;;) {
    const page = await get<ObservationsPage>("/api/public/v1/economics/observations", params);
    yield page;
    if (!page.meta.nextCursor) return;
    params.set("cursor", page.meta.nextCursor);
  }
}

async function main([series, from, limit]: string[]): Promise<void> {
  if (!series) throw new ServiceError("usage: observations.ts SERIES [FROM] [PAGE_SIZE]");
  const credits = new Map<string, Attribution>();
  for await (const page of pages(series, from, limit)) {
    for (const { referencePeriod, value } of page.data.observations)
      process.stdout.write(`${referencePeriod}\t${value ?? "not available"}\n`);
    for (const record of page.meta.attributionRecords) credits.set(record.sourceId, record);
  }
  for (const record of credits.values())
    process.stdout.write(`source: ${record.sourceId}, ${record.licenseName}, ${record.termsUrl}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof ServiceError ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
