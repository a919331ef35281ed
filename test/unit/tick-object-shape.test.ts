import { describe, expect, it } from "vitest";
import { keepTickObjectShape } from "../../server/memory/tick-object-shape.ts";

describe("keeping a tick object", () => {
  it("catches one of this Node's own tick objects, once", () => {
    expect(keepTickObjectShape()).toBe(true);
    expect(keepTickObjectShape()).toBe(true);
  });
});
