import { describe, expect, it } from "vitest";
import { TZ_DATABASE_NAMES } from "../../schemas/tz-database-names.ts";
import { REGIONS } from "../../schemas/vocabularies.ts";
import {
  cursorAfter,
  decodeCursor,
  encodeCursor,
  parseEnum,
  parseEnumList,
  parseLimit,
  parseList,
  parseZone,
  splitPage,
} from "../../server/http/params.ts";
import { localDateAndTime } from "../../server/time/zone-clock.ts";

const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return "no error";
};

describe("limit", () => {
  const limit = { default: 9, max: 10 };
  it("defaults, reads a base-ten integer prefix and clamps", () => {
    expect(parseLimit(null, limit)).toBe(9);
    expect(parseLimit("", limit)).toBe(9);
    expect(parseLimit("3.7", limit)).toBe(3);
    expect(parseLimit("5abc", limit)).toBe(5);
    expect(parseLimit("010", limit)).toBe(10);
    expect(parseLimit("11", limit)).toBe(10);
    expect(parseLimit("1000000000000", limit)).toBe(10);
    // More digits than a double holds (parseInt reads Infinity): still clamped, never refused (spec: Endpoints).
    expect(parseLimit("9".repeat(400), limit)).toBe(10);
    expect(code(() => parseLimit(`-${"9".repeat(400)}`, limit))).toBe("VALIDATION_FAILED");
  });
  it("refuses below 1 and non-integer starts", () => {
    for (const raw of ["0", "-1", "abc", ".5", "x1"])
      expect(
        code(() => parseLimit(raw, limit)),
        raw,
      ).toBe("VALIDATION_FAILED");
  });
});

describe("lists and enums", () => {
  it("splits comma lists, drops blanks and refuses too many", () => {
    expect(parseList("US, de,,", 3, "country")).toEqual(["US", "de"]);
    expect(parseList(null, 3, "country")).toBeNull();
    expect(parseList(" , ", 3, "country")).toBeNull();
    expect(code(() => parseList("a,b,c,d", 3, "country"))).toBe("VALIDATION_FAILED");
  });
  it("matches closed vocabularies case-insensitively and refuses unknown values", () => {
    expect(parseEnumList("ea,g7", REGIONS, 10, "region")).toEqual(["EA", "G7"]);
    expect(parseEnum("eu27_2020", REGIONS, "region")).toBe("EU27_2020");
    expect(code(() => parseEnum("EU", REGIONS, "region"))).toBe("VALIDATION_FAILED");
    expect(code(() => parseEnumList("EA,XX", REGIONS, 10, "region"))).toBe("VALIDATION_FAILED");
  });
});

describe("time zones", () => {
  it("accepts IANA names, defaults to UTC and refuses the rest", () => {
    expect(parseZone(null)).toBe("UTC");
    expect(parseZone("")).toBe("UTC");
    expect(parseZone("Pacific/Kiritimati")).toBe("Pacific/Kiritimati");
    for (const raw of ["Mars/Base", "EST5EDTX", "+02:00x"])
      expect(
        code(() => parseZone(raw)),
        raw,
      ).toBe("VALIDATION_FAILED");
  });

  it("answers a name of the tz database in its own spelling, whatever the ASCII case and surrounding blanks", () => {
    for (const zone of Intl.supportedValuesOf("timeZone")) expect(parseZone(zone.toUpperCase()), zone).toBe(zone);
    expect(parseZone(" europe/berlin ")).toBe("Europe/Berlin");
    expect(parseZone("asia/kolkata")).toBe("Asia/Kolkata");
    // Links stay links: the name asked for is the name answered.
    expect(parseZone("us/eastern")).toBe("US/Eastern");
    expect(parseZone("ASIA/CALCUTTA")).toBe("Asia/Calcutta");
    expect(parseZone("etc/gmt+5")).toBe("Etc/GMT+5");
  });

  it("accepts every name the list holds, each computable by the platform", () => {
    expect(TZ_DATABASE_NAMES.length).toBeGreaterThan(590);
    for (const name of TZ_DATABASE_NAMES) {
      expect(parseZone(name), name).toBe(name);
      expect(localDateAndTime(Date.parse("2026-06-01T12:00:00Z"), name).date, name).toMatch(/^2026-06-0[12]$/);
    }
  });

  it("refuses names only ICU knows, and any name that is not ASCII", () => {
    for (const raw of ["SystemV/EST5", "PST", "IST", "JST", "Factory", "posixrules"])
      expect(
        code(() => parseZone(raw)),
        raw,
      ).toBe("VALIDATION_FAILED");
    // The Kelvin sign lower-cases into "k", and the dotted capital I into "i" and a combining dot.
    for (const raw of ["Europe/\u212Aiev", "Europe/\u212Ayiv", "Asia/\u0130stanbul", "Europe/Ber\u00adlin"]) {
      expect(
        code(() => parseZone(raw)),
        raw,
      ).toBe("VALIDATION_FAILED");
    }
  });
});

describe("cursors", () => {
  it("round-trips offsets and refuses undecodable tokens", () => {
    expect(decodeCursor(encodeCursor(250))).toBe(250);
    expect(decodeCursor(null)).toBe(0);
    for (const raw of [
      "%%%",
      "abc",
      Buffer.from("o:-1").toString("base64url"),
      Buffer.from("o:1e3").toString("base64url"),
    ]) {
      expect(
        code(() => decodeCursor(raw)),
        raw,
      ).toBe("VALIDATION_FAILED");
    }
  });
  it("pages with a next cursor until the end, and an empty page past it", () => {
    const items = [1, 2, 3, 4, 5];
    // As a list already in memory is paged (public releases): all from the offset, split at the limit.
    const pageOf = (all: number[], offset: number, limit: number) => {
      const { rows, more } = splitPage(all.slice(offset), limit);
      return { items: rows, nextCursor: cursorAfter(offset, rows.length, more) };
    };
    const first = pageOf(items, 0, 2);
    expect(first).toEqual({ items: [1, 2], nextCursor: encodeCursor(2) });
    expect(pageOf(items, decodeCursor(encodeCursor(4)), 2)).toEqual({ items: [5], nextCursor: null });
    expect(pageOf(items, 99, 2)).toEqual({ items: [], nextCursor: null });
  });
});
