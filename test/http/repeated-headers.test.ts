import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { rawExchange } from "../support/raw-http.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

/** One request written byte for byte (a client would not send a header twice), and the status and error code. */
async function exchange(
  service: RunningService,
  path: string,
  headerLines: string[],
): Promise<[number, string | null]> {
  const request = [`GET ${path} HTTP/1.1`, ...headerLines, "Connection: close", "", ""].join("\r\n");
  const { head, body } = await rawExchange(service.url, request);
  const code = body ? ((JSON.parse(body) as { error?: { code: string } }).error?.code ?? null) : null;
  return [Number(head.split(" ")[1]), code];
}

/** A header sent twice is read as a `Headers` object reads it, whether the Node listener or h3 answers. */
describe("a repeated request header", () => {
  const clock = fakeClock("2026-11-21T12:00:00.500Z");
  let met: MetStandin;
  let service: RunningService;
  let host: string;
  beforeAll(async () => {
    met = await startMetStandin({ now: clock.now, expiresAfterMs: 30 * 60_000 });
    service = await startService({ clock, weatherBaseUrl: met.url });
    host = new URL(service.url).host;
  });
  afterAll(async () => {
    await service.close();
    await met.close();
  });

  it("Host, on a URL the Node listener holds and on ones h3 answers", async () => {
    const held = "/api/public/v1/status";
    await service.request(held);
    await service.request(held);
    const before = service.edgeAnswers();
    expect(await exchange(service, held, [`Host: ${host}`, "Host: other.example"])).toEqual([200, null]);
    expect(service.edgeAnswers()).toBe(before + 1);
    // h3 rebuilds the URL of a path with a needless escape from the Host srvx read.
    for (const hosts of [
      [host, "other.example"],
      ["other.example", "localhost:99999"],
    ]) {
      const lines = hosts.map((value) => `Host: ${value}`);
      expect(await exchange(service, "/api/v1/no-such-path", lines)).toEqual([404, "NOT_FOUND"]);
      expect(await exchange(service, "/api/public/v1/%73tatus", lines)).toEqual([200, null]);
    }
    expect(service.edgeAnswers()).toBe(before + 1);
  });

  it("Host: one no URL can hold is refused, alone; followed by another, the path is answered (CHANGELOG)", async () => {
    const escaped = "/api/public/v1/%73tatus";
    expect(await exchange(service, escaped, ["Host: localhost:99999"])).toEqual([400, "BAD_REQUEST"]);
    // Node joins the two; srvx reads no host in the joined text and builds the URL on its placeholder.
    expect(await exchange(service, escaped, ["Host: localhost:99999", "Host: other.example"])).toEqual([200, null]);
  });

  it("Authorization, joined and so refused, on a held URL and on one h3 answers", async () => {
    const key = service.createKey(["weather:read"]);
    const held = "/api/v1/weather/current?lat=50.1109&lon=8.6821";
    const bearer = { headers: { authorization: `Bearer ${key}` } };
    await service.request(held, bearer);
    await service.request(held, bearer);
    const before = service.edgeAnswers();
    const twice = [`Host: ${host}`, `Authorization: Bearer ${key}`, `Authorization: Bearer ${key}`];
    expect(await exchange(service, held, twice)).toEqual([401, "UNAUTHORIZED"]);
    expect(await exchange(service, held, [`Host: ${host}`, `Authorization: Bearer ${key}`])).toEqual([200, null]);
    expect(service.edgeAnswers()).toBe(before + 2);
    const viaH3 = "/api/v1/weather/%63urrent?lat=50.1109&lon=8.6821";
    expect(await exchange(service, viaH3, twice)).toEqual([401, "UNAUTHORIZED"]);
  });
});
