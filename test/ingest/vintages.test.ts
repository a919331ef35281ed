import { describe, expect, it } from "vitest";
import { isNewVintage } from "../../cli/ingest/vintages.ts";

describe("vintage rule", () => {
  const current = { sequence: 1, value: "5.0", publicationStatus: null };

  it("a first value is a new vintage", () => {
    expect(isNewVintage(undefined, { value: "5.0", publicationStatus: null })).toBe(true);
  });
  it("the same value is not", () => {
    expect(isNewVintage(current, { value: "5.0", publicationStatus: null })).toBe(false);
  });
  it("a reformatted value is not", () => {
    expect(isNewVintage(current, { value: "5", publicationStatus: null })).toBe(false);
    expect(isNewVintage(current, { value: "5.00", publicationStatus: null })).toBe(false);
  });
  it("a revised value is", () => {
    expect(isNewVintage(current, { value: "5.1", publicationStatus: null })).toBe(true);
    expect(isNewVintage({ ...current, value: "0.1" }, { value: "0.10000000000000001", publicationStatus: null })).toBe(
      true,
    );
  });
  it("a status-only change is", () => {
    expect(isNewVintage({ ...current, publicationStatus: "P" }, { value: "5.0", publicationStatus: null })).toBe(true);
  });
  it("a filled or emptied period is", () => {
    expect(isNewVintage({ ...current, value: null }, { value: "5.0", publicationStatus: null })).toBe(true);
    expect(isNewVintage(current, { value: null, publicationStatus: null })).toBe(true);
  });
});
