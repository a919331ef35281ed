import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { type RunningService, startService } from "../support/service.ts";

/**
 * A parameter holding only spaces is not given (server/http/params.ts givenValue): for each route and parameter, the
 * answer to `param=%20` (and to `param=+%09`, a form-encoded space and a tab) is the answer to the parameter absent,
 * the same status and the same data. Before this rule, a blank from, asOf, limit or cursor was refused with 400 and a
 * blank timezone turned the local projection on.
 */

const SERIES = "us-cpi-all-items-12-month-change";
const BLANKS = ["%20", "+%09"];

/** Each route with the query it is asked with anyway, and the parameters to leave blank in turn. */
const ROUTES: { path: string; base: string; credentialed: boolean; params: string[] }[] = [
  {
    path: "/api/public/v1/economics/calendar",
    base: "",
    credentialed: false,
    params: ["from", "to", "tz", "limit", "cursor"],
  },
  { path: "/api/public/v1/economics/calendar.ics", base: "", credentialed: false, params: ["from", "to", "tz"] },
  {
    path: "/api/public/v1/news/events",
    base: "",
    credentialed: false,
    params: ["from", "to", "tz", "limit", "cursor"],
  },
  {
    path: "/api/public/v1/economics/releases",
    base: "",
    credentialed: false,
    params: ["country", "perSeries", "limit", "cursor"],
  },
  {
    path: "/api/public/v1/economics/observations",
    base: `series=${SERIES}`,
    credentialed: false,
    params: ["from", "to", "limit", "cursor"],
  },
  { path: "/api/public/v1/economics/observations", base: "", credentialed: false, params: ["series"] },
  {
    path: "/api/v1/economics/events",
    base: "",
    credentialed: true,
    params: ["from", "to", "tz", "timezone", "limit", "cursor"],
  },
  { path: "/api/v1/economics/calendar", base: "", credentialed: true, params: ["from", "to", "tz", "limit", "cursor"] },
  {
    path: `/api/v1/economics/series/${SERIES}/observations`,
    base: "",
    credentialed: true,
    params: ["asOf", "vintages", "from", "to", "limit", "cursor"],
  },
  { path: "/api/v1/economics/series", base: "", credentialed: true, params: ["indicator", "country", "limit"] },
];

const CASES = ROUTES.flatMap((route) =>
  route.params.flatMap((param) => BLANKS.map((blank) => ({ ...route, param, blank }))),
);

describe("a blank parameter is answered as an absent one", () => {
  let service: RunningService;
  let credentialedGet: ReturnType<typeof credentialedClient>;

  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
    credentialedGet = credentialedClient(service);
  });
  afterAll(async () => {
    await service?.close();
    removeEconomicsDataDirs();
  });

  /** Status and what the answer says: the data (or error code) of JSON, the text of iCalendar (fetched bare, as it is served). */
  const answer = async (credentialed: boolean, path: string, query: string) => {
    const target = query === "" ? path : `${path}?${query}`;
    if (path.endsWith(".ics")) {
      const response = await fetch(`${service.url}${target}`);
      return { status: response.status, said: await response.text() };
    }
    const { status, body } = await (credentialed ? credentialedGet(target) : service.request(target));
    return { status, said: body.data ?? body.error.code };
  };

  it("compares answers that hold records: the default windows of the sample index are not empty", async () => {
    const events = await credentialedGet("/api/v1/economics/events");
    expect(events.body.data.entries.length).toBeGreaterThan(0);
    const calendar = await service.request("/api/public/v1/economics/calendar");
    expect(calendar.body.data.days.length).toBeGreaterThan(0);
  });

  it.each(CASES)("$path?$base with $param=$blank", async ({ path, base, credentialed, param, blank }) => {
    const absent = await answer(credentialed, path, base);
    const blanked = await answer(
      credentialed,
      path,
      [base, `${param}=${blank}`].filter((part) => part !== "").join("&"),
    );
    expect(blanked).toEqual(absent);
  });

  it("reads a padded value as the value, so only a blank one is dropped", async () => {
    const padded = await answer(false, "/api/public/v1/economics/calendar", "limit=%202%20");
    const plain = await answer(false, "/api/public/v1/economics/calendar", "limit=2");
    expect(padded).toEqual(plain);
  });
});
