import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assertContract } from "../support/contract.ts";
import { startCli } from "../support/long-running-cli.ts";

const LISTENING = /listening on (http:\/\/[^\s/]+)/;

/** Starts the real `service serve` on a data directory, asks for `path`, stops it; stderr and the contract-checked answer. */
async function serveOnce(dataDir: string, path: string) {
  const service = startCli(["serve", "--port", "0", "--data-dir", dataDir]);
  try {
    const [, url] = await service.waitForStdout(LISTENING, 30_000);
    const target = new URL(path, url);
    const response = await fetch(target);
    const body = await response.json();
    assertContract("GET", target, response.status, body);
    return { status: response.status, body, stderr: service.stderr() };
  } finally {
    await service.stop("SIGTERM");
  }
}

describe("place search out of the box", () => {
  it("is built by `service serve` on a fresh data directory, once, with each place's time zone", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "serve-places-"));
    const first = await serveOnce(dataDir, "/api/public/v1/weather/places?q=tromso&limit=3");
    expect(first.stderr).toMatch(/no place search index in .+: building it from the bundled GeoNames gazetteer/);
    expect(first.stderr).toMatch(/place search index built: \d{6} places with their time zones in \d+\.\d s/);
    expect(first.status).toBe(200);
    expect(first.body.data.places[0]).toMatchObject({ name: "Tromsø", countryCode: "NO", timeZone: "Europe/Oslo" });
    expect(first.body.data.attribution).toMatchObject({ licenseName: "CC BY 4.0" });

    const second = await serveOnce(dataDir, "/api/public/v1/weather/places?q=adelaide&limit=1");
    expect(second.stderr).not.toMatch(/place search index/);
    expect(second.body.data.places[0]).toMatchObject({
      name: "Adelaide",
      countryCode: "AU",
      timeZone: "Australia/Adelaide",
    });
  });
});
