import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchDocument, PublisherAskedToWaitError } from "../../cli/ingest/fetch-document.ts";
import { retryAfterMs } from "../../server/upstream/fetch-limited.ts";

/**
 * A publisher's Retry-After, on a real HTTP server on 127.0.0.1: each path answers with the statuses and Retry-After
 * values queued for it, then 200. The sleeps are recorded, not waited.
 */
describe("fetchDocument and a publisher's Retry-After", () => {
  let server: Server;
  let base = "";
  const queued = new Map<string, { status: number; retryAfter?: string }[]>();
  const requests: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request.url!);
      const next = queued.get(request.url!)?.shift();
      if (!next) return void response.writeHead(200, { "content-type": "text/plain" }).end("ok");
      const headers = next.retryAfter === undefined ? {} : { "retry-after": next.retryAfter };
      response.writeHead(next.status, headers).end("busy");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const fetchWith = (path: string, retries: number, sleeps: number[]) =>
    fetchDocument(
      { url: `${base}${path}` },
      {
        userAgent: "fetch-document-test (test@example.org)",
        timeoutMs: 5000,
        maxBytes: 10_000,
        retries,
        sleep: async (ms) => void sleeps.push(ms),
      },
    );

  it("waits a short Retry-After out and asks again", async () => {
    queued.set("/short", [{ status: 503, retryAfter: "2" }]);
    const sleeps: number[] = [];
    const document = await fetchWith("/short", 2, sleeps);
    expect(document.status).toBe(200);
    expect(sleeps).toEqual([2000]);
  });

  it("does not ask again within the run when the publisher asks for longer than a run waits", async () => {
    queued.set("/long", [{ status: 429, retryAfter: "600" }]);
    const sleeps: number[] = [];
    const failure = await fetchWith("/long", 2, sleeps).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PublisherAskedToWaitError);
    expect((failure as PublisherAskedToWaitError).waitMs).toBe(600_000);
    expect((failure as Error).message).toMatch(/answered HTTP 429, asking to wait 600 s \(Retry-After\)$/);
    expect(sleeps).toEqual([]);
    expect(requests.filter((path) => path === "/long")).toHaveLength(1);
  });

  it("reads a Retry-After given as an HTTP date, and keeps it when the last attempt meets it", async () => {
    const inTenMinutes = new Date(Date.now() + 600_000).toUTCString();
    queued.set("/date", [{ status: 503, retryAfter: inTenMinutes }]);
    const failure = await fetchWith("/date", 0, []).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PublisherAskedToWaitError);
    expect((failure as PublisherAskedToWaitError).waitMs).toBeGreaterThan(590_000);
    expect((failure as PublisherAskedToWaitError).waitMs).toBeLessThanOrEqual(600_000);
  });

  it("a 503 with no Retry-After on the last attempt asks nobody to wait", async () => {
    queued.set("/plain", [{ status: 503 }]);
    const failure = await fetchWith("/plain", 0, []).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(PublisherAskedToWaitError);
    expect((failure as Error).message).toMatch(/answered HTTP 503$/);
  });

  it("reads a delay of hundreds of digits as the longest wait (a day), not as unreadable", () => {
    expect(retryAfterMs("9".repeat(400))).toBe(86_400_000);
    expect(retryAfterMs("120")).toBe(120_000);
    expect(retryAfterMs("soon")).toBeNull();
  });
});
