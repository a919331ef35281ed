import { afterEach, describe, expect, it } from "vitest";
import { clientAddress } from "../../server/http/client-address.ts";
import { type RunningService, startService } from "../support/service.ts";

describe("the client of a request behind a reverse proxy", () => {
  const trusted = new Set(["10.0.0.5", "10.0.0.6"]);

  it("is the right-most address that is not a trusted proxy, and only a trusted peer's header is read", () => {
    expect(clientAddress("10.0.0.5", "203.0.113.7", trusted)).toBe("203.0.113.7");
    expect(clientAddress("10.0.0.5", "198.51.100.1, 203.0.113.7, 10.0.0.6", trusted)).toBe("203.0.113.7");
    expect(clientAddress("::ffff:10.0.0.5", "203.0.113.7", trusted)).toBe("203.0.113.7");
    expect(clientAddress("192.0.2.9", "203.0.113.7", trusted)).toBe("192.0.2.9"); // an untrusted peer's header is ignored
    expect(clientAddress("10.0.0.5", "not-an-address", trusted)).toBe("10.0.0.5");
    expect(clientAddress("10.0.0.5", null, trusted)).toBe("10.0.0.5");
  });
});

describe("public rate limits behind a trusted proxy", () => {
  let service: RunningService | undefined;
  afterEach(() => service?.close());

  const statuses = async (forwardedFor: string[]) => {
    const answers = [];
    for (const client of forwardedFor)
      answers.push(
        (await service!.request("/api/v1/economics/indicators", { headers: { "x-forwarded-for": client } })).status,
      );
    return answers;
  };

  it("count each forwarded client on its own when the proxy is trusted", async () => {
    service = await startService({ trustedProxies: ["127.0.0.1"], rateLimit: { publicPerWindow: 2 } });
    expect(await statuses(["203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.2", "203.0.113.1"])).toEqual([
      200, 200, 200, 200, 429,
    ]);
  });

  it("count everyone together as the peer when no proxy is trusted, whatever X-Forwarded-For says", async () => {
    service = await startService({ rateLimit: { publicPerWindow: 2 } });
    expect(await statuses(["203.0.113.1", "203.0.113.2", "203.0.113.3"])).toEqual([200, 200, 429]);
  });
});
