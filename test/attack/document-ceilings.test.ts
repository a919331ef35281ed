import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UpstreamHosts } from "../../cli/ingest/sources.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { runIngestion } from "../support/compiled-ingestion.ts";
import { paddedDocument } from "../support/padded-documents.ts";

/**
 * A 19.9 MB announcement feed (under the 20 MB fetch ceiling) peaked at 811-836 MB of resident memory, and
 * `--from-archive` had no ceiling at all. Feeds and calendars now have ceilings of their own, applied alike to a fetch
 * and to a replay, where a replayed file over it is never read (bench/ingest-document-memory.ts measures the peaks).
 */

const registry = readRegistrySources(new Date("2026-06-25T00:00:00Z"));
const RECORDED_FEED = "data/samples/ecb-press-feed/ecb-press-rss-2026-06-24.xml";
const now = () => Date.parse("2026-06-25T00:00:00Z");
const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("size ceilings of feeds and calendars", () => {
  // The recorded ECB feed MODIFIED to 1.5 MB by repeating its items (generated here, never stored).
  const oversized = paddedDocument(RECORDED_FEED, 1_500_000);
  let server: Server;
  let hosts: UpstreamHosts;

  beforeAll(async () => {
    server = createServer((_request, response) =>
      response.writeHead(200, { "content-type": "application/rss+xml" }).end(oversized),
    ).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    hosts = { "bls-www": base, "bls-api": base, eurostat: base, "ecb-www": base, "ecb-data": base };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("refuses a replayed feed over its format's ceiling, naming its size and the ceiling", async () => {
    const archive = tempDir("ceiling-archive");
    mkdirSync(join(archive, "ecb-press-feed"));
    writeFileSync(join(archive, "ecb-press-feed", "modified-padded.xml"), oversized);
    const summary = await runIngestion({
      dataDir: tempDir("ceiling-data"),
      registry,
      mode: { kind: "archive", dir: archive },
      only: ["ecb-press-feed"],
      now,
      progress: () => {},
    });
    const [result] = summary.sources;
    expect(result!.ok).toBe(false);
    expect(result!.detail).toContain(
      `modified-padded.xml: the document is ${oversized.length} bytes, over the 1000000-byte ceiling for announcement feeds`,
    );
  });

  it("applies the same ceiling to a fetched feed, under a far higher fetch ceiling", async () => {
    const summary = await runIngestion({
      dataDir: tempDir("ceiling-fetch"),
      registry,
      mode: {
        kind: "fetch",
        hosts,
        blsApiKey: null,
        http: { userAgent: "document-ceilings test", timeoutMs: 5_000, maxBytes: 20_000_000, retries: 0 },
      },
      only: ["ecb-press-feed"],
      now,
      progress: () => {},
    });
    const [result] = summary.sources;
    expect(result!.ok).toBe(false);
    expect(result!.detail).toMatch(/the 1000000-byte ceiling for announcement feeds$/);
  });

  it("replays a feed under the ceiling as before", async () => {
    const archive = tempDir("ceiling-archive-ok");
    mkdirSync(join(archive, "ecb-press-feed"));
    writeFileSync(join(archive, "ecb-press-feed", "modified-padded.xml"), paddedDocument(RECORDED_FEED, 200_000));
    const summary = await runIngestion({
      dataDir: tempDir("ceiling-data-ok"),
      registry,
      mode: { kind: "archive", dir: archive, maxBytes: 20_000_000 },
      only: ["ecb-press-feed"],
      now,
      progress: () => {},
    });
    expect(summary.sources[0]!.ok, summary.sources[0]!.detail).toBe(true);
  });
});
