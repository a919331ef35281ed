import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESPONSE_CEILING_BYTES } from "../../schemas/limits.ts";
import { ApiError } from "../../server/http/api-error.ts";
import { startPipeline, testSpec } from "../support/pipeline-harness.ts";

const bigItems = Array.from({ length: 3000 }, (_, index) => ({ index, padding: "x".repeat(500) }));
const hugeFirstItems = [
  { index: 0, padding: "x".repeat(RESPONSE_CEILING_BYTES) },
  { index: 1, padding: "x" },
];

describe("shared pipeline rules", () => {
  let service: Awaited<ReturnType<typeof startPipeline>>;
  beforeAll(async () => {
    service = await startPipeline(
      [
        {
          spec: testSpec({ name: "t.scoped", path: "/scoped", access: "ECOSYSTEM_INTERNAL", scope: "weather:read" }),
          handler: () => ({ data: { ok: true } }),
        },
        {
          spec: testSpec({ name: "t.admin", path: "/admin", access: "OPERATOR", scope: "operator" }),
          handler: () => ({ data: { admin: true } }),
        },
        {
          spec: testSpec({
            name: "t.admin.post",
            path: "/admin",
            method: "POST",
            access: "OPERATOR",
            scope: "operator",
          }),
          handler: () => ({ data: { started: true } }),
        },
        {
          spec: testSpec({ name: "t.storage", path: "/storage", requiresDurableStorage: true }),
          handler: () => ({ data: [] }),
        },
        {
          spec: testSpec({ name: "t.fails", path: "/fails" }),
          handler: () => {
            throw new Error("secret stack detail at /etc/passwd");
          },
        },
        {
          spec: testSpec({ name: "t.upstream", path: "/upstream" }),
          handler: () => {
            throw new ApiError("UPSTREAM_TIMEOUT");
          },
        },
        {
          spec: testSpec({ name: "t.big", path: "/big" }),
          handler: () => ({
            data: { items: bigItems },
            cut: { count: bigItems.length, firstItems: (n) => ({ data: { items: bigItems.slice(0, n) } }) },
          }),
        },
        {
          spec: testSpec({ name: "t.hugeFirst", path: "/huge-first" }),
          handler: () => {
            const firstItems = (n: number) => ({
              data: { items: hugeFirstItems.slice(0, n) },
              meta: { nextCursor: n < hugeFirstItems.length ? `after-${n}` : null },
            });
            return { ...firstItems(hugeFirstItems.length), cut: { count: hugeFirstItems.length, firstItems } };
          },
        },
      ],
      { durableStorage: false },
    );
  });
  afterAll(() => service.close());

  const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    fetch(`${service.url}${path}`, { method, headers });

  it("401 without a key, 403 with a key lacking the scope, 200 with it", async () => {
    expect((await get("/scoped")).status).toBe(401);
    const wrongScope = service.key(["economics:read"]);
    const forbidden = await get("/scoped", { authorization: `Bearer ${wrongScope}` });
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).error.code).toBe("FORBIDDEN");
    const right = service.key(["weather:read"]);
    expect((await get("/scoped", { "x-api-key": right })).status).toBe(200);
  });

  it("operator paths answer exactly like an unregistered path to everyone without an operator key", async () => {
    const plain = service.key(["weather:read", "economics:read"]);
    for (const [method, headers] of [
      ["GET", {}],
      ["POST", {}],
      ["GET", { authorization: `Bearer ${plain}` }],
      ["DELETE", { "x-api-key": plain }],
    ] as const) {
      const hidden = await get("/admin", headers, method);
      const unknown = await get("/no-such-path", headers, method);
      expect(hidden.status).toBe(404);
      expect([...hidden.headers.keys()].sort()).toEqual([...unknown.headers.keys()].sort());
      const [hiddenBody, unknownBody] = [await hidden.json(), await unknown.json()];
      expect(Object.keys(hiddenBody.error)).toEqual(Object.keys(unknownBody.error));
      expect(hiddenBody.error.code).toBe("NOT_FOUND");
      expect(hiddenBody.error.message).toBe(unknownBody.error.message);
    }
    const operator = service.key(["operator"]);
    expect((await get("/admin", { authorization: `Bearer ${operator}` })).status).toBe(200);
    expect((await get("/admin", { authorization: `Bearer ${operator}` }, "POST")).status).toBe(200);
    const wrongMethod = await get("/admin", { authorization: `Bearer ${operator}` }, "PUT");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, POST, HEAD");
  });

  it("storage-backed routes fail closed with 503 and Retry-After", async () => {
    const response = await get("/storage");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toMatch(/^[0-9]+$/);
    expect((await response.json()).error.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("an unexpected failure is INTERNAL with nothing internal in the body", async () => {
    const response = await get("/fails");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text).error.code).toBe("INTERNAL");
    expect(text).not.toMatch(/secret|passwd|stack|at /);
  });

  it("upstream failure codes carry their statuses", async () => {
    const response = await get("/upstream");
    expect(response.status).toBe(504);
    expect((await response.json()).error.code).toBe("UPSTREAM_TIMEOUT");
  });

  it("cuts a page over 1 MB to fit and says so", async () => {
    const response = await get("/big");
    const text = await response.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(RESPONSE_CEILING_BYTES);
    const body = JSON.parse(text);
    expect(body.meta.truncated).toBe(true);
    expect(body.data.items.length).toBeGreaterThan(1000);
    expect(body.data.items.length).toBeLessThan(bigItems.length);
  });

  it("serves a first entry that alone is over 1 MB, cut after it, rather than an empty page whose cursor never moves", async () => {
    const body = await (await get("/huge-first")).json();
    expect(body.data.items.map((item: { index: number }) => item.index)).toEqual([0]);
    expect(body.meta.truncated).toBe(true);
    expect(body.meta.nextCursor).toBe("after-1");
  });
});

describe("kept answers", () => {
  it("are never served for a data generation since replaced, and leave when their URL is asked again", async () => {
    let published = { index: 1 };
    let built = 0;
    const service = await startPipeline([
      {
        spec: testSpec({ name: "t.kept", path: "/kept" }),
        handler: () => {
          const readFrom = published;
          return {
            data: { built: ++built },
            validUntil: Number.POSITIVE_INFINITY,
            stillCurrent: () => published === readFrom,
          };
        },
      },
    ]);
    try {
      const body = async () => (await (await fetch(`${service.url}/kept`)).json()).data;
      expect(await body()).toEqual({ built: 1 });
      expect(await body()).toEqual({ built: 1 });
      const kept = service.answerCacheBytes();
      expect(kept).toBeGreaterThan(0);
      published = { index: 2 };
      expect(await body()).toEqual({ built: 2 });
      expect(service.answerCacheBytes()).toBe(kept);
    } finally {
      await service.close();
    }
  });

  it("leave at the instant their route said they would change, with no request asking for them", async () => {
    const service = await startPipeline([
      {
        spec: testSpec({ name: "t.brief", path: "/brief" }),
        handler: ({ now }) => ({ data: { ok: true }, validUntil: now + 50, stillCurrent: () => true }),
      },
    ]);
    try {
      expect((await fetch(`${service.url}/brief`)).status).toBe(200);
      expect(service.answerCacheBytes()).toBeGreaterThan(0);
      service.advance(100);
      await sleep(200);
      expect(service.answerCacheBytes()).toBe(0);
    } finally {
      await service.close();
    }
  });
});
