import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIngestionLauncher } from "../../cli/ingest/launch-ingestion.ts";
import { rawRequest } from "../support/raw-http.ts";
import { type RunningService, startService } from "../support/service.ts";

/**
 * The operator routes (server/resources/admin.ts) attacked by non-operators, who must not be able to tell them from
 * unregistered paths by status, headers or body, and by operators with odd run ids; and a careless operator's data
 * directory where the run logs cannot be written.
 */

const RUNS = "/api/v1/admin/ingestion/runs";
const OPERATOR_PATHS = [RUNS, `${RUNS}/run_20261121T120000_a1b2c3`, "/api/v1/admin/metrics"];
/** An unregistered path of the same shape, for comparison. */
const UNREGISTERED = "/api/v1/admin/nothing-here";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

async function raw(url: string, method: string, headers: Record<string, string>): Promise<Raw> {
  const answer = await rawRequest(url, headers, method);
  return { ...answer, body: answer.body.toString("utf8") };
}

/** What may differ between two answers to the same kind of request: per-request ids, counters and lengths aside. */
function shape(answer: Raw) {
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(
      ([name]) =>
        !["x-request-id", "date", "ratelimit-remaining", "ratelimit-reset", "content-length", "keep-alive"].includes(
          name,
        ),
    ),
  );
  return { status: answer.status, headers, body: answer.body.replace(/"requestId":"[^"]+"/, '"requestId":""') };
}

describe("operator routes seen by everyone else", () => {
  let service: RunningService;
  let credentialed: string;
  let revoked: string;
  let otherEnvironment: string;
  let operator: string;

  beforeAll(async () => {
    service = await startService({
      corsOrigins: ["https://app.example"],
      launchIngestion: (dataDir) => createIngestionLauncher(dataDir, { PATH: process.env.PATH ?? "" }),
    });
    credentialed = service.createKey(["economics:read", "weather:read"]);
    revoked = service.createKey(["operator"], { revoked: true });
    otherEnvironment = service.createKey(["operator"], { environment: "production" });
    operator = service.createKey(["operator"]);
  });
  afterAll(() => service.close());

  const callers = () => ({
    anonymous: {},
    credentialed: { authorization: `Bearer ${credentialed}` },
    "credentialed by X-API-Key": { "x-api-key": credentialed },
    "revoked operator": { authorization: `Bearer ${revoked}` },
    "operator of another environment": { authorization: `Bearer ${otherEnvironment}` },
    malformed: { authorization: "Bearer not-a-key!!" },
    "basic scheme": { authorization: "Basic b3BlcmF0b3I6b3BlcmF0b3I=" },
    "browser from an allowed origin": { origin: "https://app.example" },
    "browser from another origin": { origin: "https://evil.example" },
  });

  it("answers every non-operator exactly as an unregistered path, for every method", async () => {
    for (const [who, headers] of Object.entries(callers())) {
      for (const method of ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"]) {
        const expected = shape(await raw(service.url + UNREGISTERED, method, headers as Record<string, string>));
        for (const path of OPERATOR_PATHS) {
          const actual = shape(await raw(service.url + path, method, headers as Record<string, string>));
          expect(actual, `${who} ${method} ${path}`).toEqual(expected);
        }
      }
    }
  });

  it("answers a non-operator's CORS preflight to an operator path as to an unregistered path", async () => {
    for (const origin of ["https://app.example", "https://evil.example"]) {
      for (const requested of ["GET", "POST", "DELETE"]) {
        const headers = {
          origin,
          "access-control-request-method": requested,
          "access-control-request-headers": "authorization",
        };
        const expected = shape(await raw(service.url + UNREGISTERED, "OPTIONS", headers));
        for (const path of OPERATOR_PATHS)
          expect(shape(await raw(service.url + path, "OPTIONS", headers)), `${origin} ${requested} ${path}`).toEqual(
            expected,
          );
      }
    }
  });

  it("counts a non-operator's requests to operator paths under the unregistered route in the metrics", async () => {
    await raw(`${service.url}/api/v1/admin/metrics`, "GET", {});
    const metrics = await raw(`${service.url}/api/v1/admin/metrics`, "GET", { authorization: `Bearer ${operator}` });
    expect(metrics.status).toBe(200);
    expect(metrics.body).not.toMatch(/route="v1\.admin\.[^"]+",status="404"/);
  });

  it("shows operators no configuration values in the metrics: no data directory, key file, host or environment value", async () => {
    const metrics = await raw(`${service.url}/api/v1/admin/metrics`, "GET", { authorization: `Bearer ${operator}` });
    expect(metrics.status).toBe(200);
    for (const secret of [
      service.dataDir,
      service.config.keysFile,
      service.config.weather.baseUrl,
      operator,
      credentialed,
    ])
      expect(metrics.body).not.toContain(secret);
  });

  it("answers run ids with traversal or odd characters 404 NOT_FOUND, never a file and never a 500", async () => {
    const odd = [
      "..",
      "..%2F..%2Fkeys.json",
      "%2e%2e%2fkeys.json",
      "run_20261121T120000_a1b2c3%00",
      "run_20261121T120000_a1b2c3%0a",
      "run_20261121T120000_a1b2c3%20",
      "run_20261121T120000_A1B2C3",
      "run_20261121T120000_a1b2c3.log",
      "ingestion-run_20261121T120000_a1b2c3",
      "%E2%80%AE",
      "run_99999999T999999_ffffff",
      `run_${"1".repeat(5000)}`,
      "run_20261121T120000_a1b2c3;DROP TABLE runs",
      "'%20OR%20'1'='1",
    ];
    // Percent-encodings no URL decoder accepts are malformed requests: 400 BAD_REQUEST, as on any path.
    for (const id of ["%ff", "%"]) {
      const answer = await service.request(`${RUNS}/${id}`, { headers: { authorization: `Bearer ${operator}` } });
      expect(answer.status, id).toBe(400);
      expect(answer.body.error.code, id).toBe("BAD_REQUEST");
    }
    for (const id of odd) {
      const answer = await service.request(`${RUNS}/${id}`, { headers: { authorization: `Bearer ${operator}` } });
      expect(answer.status, id).toBe(404);
      expect(answer.body.error.code, id).toBe("NOT_FOUND");
    }
  });
});

describe("a data directory where run logs cannot be written", () => {
  let service: RunningService;
  let operator: string;
  beforeAll(async () => {
    service = await startService({
      launchIngestion: (dataDir) => createIngestionLauncher(dataDir, { PATH: process.env.PATH ?? "" }),
    });
    operator = service.createKey(["operator"]);
    // A careless operator's data directory: `logs` is a file (or a folder the service may not write).
    mkdirSync(service.dataDir, { recursive: true });
    writeFileSync(join(service.dataDir, "logs"), "not a folder\n");
  });
  afterAll(() => service.close());

  // CONFIGURATION_ERROR is a 500 by the error table (schemas/errors.ts); what matters is that it names the cause.
  it("answers the trigger with a contract error naming the configuration, not INTERNAL", async () => {
    const answer = await service.request(RUNS, { method: "POST", headers: { authorization: `Bearer ${operator}` } });
    expect(answer.body.error?.code, answer.text).toBe("CONFIGURATION_ERROR");
    expect(answer.body.error.message).toMatch(/log/);
    expect(answer.text).not.toContain(service.dataDir);
  });
});
