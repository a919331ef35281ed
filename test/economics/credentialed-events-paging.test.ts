import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESPONSE_CEILING_BYTES } from "../../schemas/limits.ts";
import { encodeCursor } from "../../server/http/params.ts";
import { longTitleDataDir, removeEconomicsDataDirs } from "../support/economics-index.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { type RunningService, startService } from "../support/service.ts";
import { BULK, LONG_TITLES } from "../support/synthetic-economics-corpora.ts";
import { ALL_MARCH, edgeCaseEventsService, ID, idsOf, MARCH } from "./credentialed-events-fixtures.ts";

afterAll(removeEconomicsDataDirs);

describe("GET /api/v1/economics/events over a synthetic index", () => {
  const { events, expectError } = edgeCaseEventsService();

  describe("limit and cursor", () => {
    const BULK_RANGE = "from=2027-01-01&to=2027-01-31";

    it("defaults to 100 and clamps to 500", async () => {
      const defaulted = await events(BULK_RANGE);
      expect(defaulted.body.data.entries).toHaveLength(100);
      expect(defaulted.body.meta.nextCursor).toEqual(expect.any(String));
      const clamped = await events(`${BULK_RANGE}&limit=1000`);
      expect(clamped.body.data.entries).toHaveLength(500);
      expect(clamped.body.meta.nextCursor).toEqual(expect.any(String));
      expect((await events(`${BULK_RANGE}&limit=${encodeURIComponent("3.7")}`)).body.data.entries).toHaveLength(3);
      expect((await events(`${BULK_RANGE}&limit=`)).body.data.entries).toHaveLength(100);
    });

    it("refuses a limit below 1 or not starting with an integer", async () => {
      for (const limit of ["0", "-1", "abc", ".5"])
        await expectError(`${BULK_RANGE}&limit=${limit}`, 400, "VALIDATION_FAILED");
    });

    it("pages through the whole filtered set with identical filters: no gaps, no repeats, same order", async () => {
      const whole = (await events(`${BULK_RANGE}&limit=500`)).body;
      const rest = (await events(`${BULK_RANGE}&limit=500&cursor=${whole.meta.nextCursor}`)).body;
      expect(rest.meta.nextCursor).toBeNull();
      const reference = [...idsOf(whole), ...idsOf(rest)];
      expect(reference).toHaveLength(BULK.count);

      const paged: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `${BULK_RANGE}&limit=150${cursor ? `&cursor=${cursor}` : ""}`;
        const { status, body } = await events(query);
        expect(status).toBe(200);
        sizes.push(body.data.entries.length);
        paged.push(...idsOf(body));
        cursor = body.meta.nextCursor;
      } while (cursor !== null);
      expect(sizes).toEqual([150, 150, 150, 70]);
      expect(paged).toEqual(reference);
      expect(new Set(paged).size).toBe(BULK.count);
    });

    it("pages a filtered set spanning both corpora", async () => {
      const query = "from=2026-03-01&to=2027-01-31&importance=low&country=US";
      const first = await events(`${query}&limit=300`);
      const second = await events(`${query}&limit=300&cursor=${first.body.meta.nextCursor}`);
      expect(first.body.data.entries).toHaveLength(300);
      expect(second.body.data.entries).toHaveLength(BULK.count + 1 - 300);
      expect(second.body.meta.nextCursor).toBeNull();
      expect(idsOf(first.body)[0]).toBe(ID.realEarnings0311);
    });

    it("gives a null nextCursor exactly when the page reaches the end of the filtered set", async () => {
      const exact = await events(`${MARCH}&limit=${ALL_MARCH.length}`);
      expect(exact.body.data.entries).toHaveLength(ALL_MARCH.length);
      expect(exact.body.meta.nextCursor).toBeNull();
      const short = await events(`${MARCH}&limit=${ALL_MARCH.length - 1}`);
      expect(short.body.meta.nextCursor).toEqual(expect.any(String));
      const last = await events(`${MARCH}&limit=${ALL_MARCH.length - 1}&cursor=${short.body.meta.nextCursor}`);
      expect(idsOf(last.body)).toEqual([idsOf(exact.body).at(-1)]);
      expect(last.body.meta.nextCursor).toBeNull();
    });

    it("refuses an undecodable cursor and answers a cursor past the end with an empty page", async () => {
      for (const cursor of [
        "not-a-cursor",
        "%25%25%25",
        encodeURIComponent(Buffer.from("o:-1").toString("base64url")),
        "bzp4",
      ]) {
        await expectError(`${BULK_RANGE}&cursor=${cursor}`, 400, "VALIDATION_FAILED");
      }
      const past = await events(`${BULK_RANGE}&cursor=${encodeCursor(100_000)}`);
      expect(past.status).toBe(200);
      expect(past.body.data.entries).toEqual([]);
      expect(past.body.meta.nextCursor).toBeNull();
      const exactEnd = await events(`${BULK_RANGE}&cursor=${encodeCursor(BULK.count)}`);
      expect(exactEnd.body.data.entries).toEqual([]);
      expect(exactEnd.body.meta.nextCursor).toBeNull();
    });
  });
});

describe("GET /api/v1/economics/events at the response ceiling", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;
  const RANGE = `from=${LONG_TITLES.from}&to=${LONG_TITLES.to}`;

  beforeAll(async () => {
    service = await startService({ seedDataDir: await longTitleDataDir() });
    get = credentialedClient(service);
  });
  afterAll(() => service.close());

  it("cuts a page over 1 MB, marks it truncated, and resumes the cursor after the last entry served", async () => {
    const reference: string[] = [];
    let cursor: string | null = null;
    do {
      const response: { body: any } = await get(
        `/api/v1/economics/events?${RANGE}&limit=50${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(response.body.meta.truncated).toBe(false);
      reference.push(...idsOf(response.body));
      cursor = response.body.meta.nextCursor;
    } while (cursor !== null);
    expect(reference).toHaveLength(LONG_TITLES.count);

    const paged: string[] = [];
    let truncatedPages = 0;
    cursor = null;
    do {
      const response: { status: number; text: string; body: any } = await get(
        `/api/v1/economics/events?${RANGE}&limit=500${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(response.status).toBe(200);
      expect(Buffer.byteLength(response.text)).toBeLessThanOrEqual(RESPONSE_CEILING_BYTES);
      if (response.body.meta.truncated === true) truncatedPages++;
      expect(response.body.data.entries.length).toBeGreaterThan(0);
      paged.push(...idsOf(response.body));
      cursor = response.body.meta.nextCursor;
    } while (cursor !== null);
    expect(truncatedPages).toBeGreaterThan(0);
    expect(paged).toEqual(reference);
  });
});
