import { describe, expect, it } from "vitest";
import { QUERY_VIEWS } from "../../cli/query/columns.ts";
import { pageNote } from "../../cli/query/page-note.ts";
import { renderCsv, renderTable, renderTsv } from "../../cli/query/render.ts";

const indicators = QUERY_VIEWS.indicators!;
const data = {
  indicators: [
    {
      slug: "consumer-prices-us",
      category: "prices",
      name: "US consumer prices: CPI-U, the all-items index and its 12-month change",
    },
    {
      slug: "euro-area-hicp",
      category: "prices",
      name: "Euro area HICP – flash estimate, Zürich-style “quotes”\tand a tab",
    },
    { slug: "policy-rate", category: "monetary-policy", name: "ECB deposit facility rate" },
  ],
};

describe("query tables on a terminal", () => {
  it("aligns whole values when the terminal is wide enough, a tab or line break inside a value made a space", () => {
    expect(renderTable(indicators, data, 200)).toBe(
      [
        "slug                category         name",
        "------------------  ---------------  ----------------------------------------------------------------------",
        `consumer-prices-us  prices           ${data.indicators[0]!.name}`,
        "euro-area-hicp      prices           Euro area HICP – flash estimate, Zürich-style “quotes” and a tab",
        "policy-rate         monetary-policy  ECB deposit facility rate",
        "",
      ].join("\n"),
    );
  });

  it("fits a narrow terminal by wrapping the names, slugs whole", () => {
    expect(renderTable(indicators, data, 60)).toBe(
      [
        "slug                category         name",
        "------------------  ---------------  -----------------------",
        "consumer-prices-us  prices           US consumer prices:",
        "                                     CPI-U, the all-items",
        "                                     index and its 12-month",
        "                                     change",
        "euro-area-hicp      prices           Euro area HICP – flash",
        "                                     estimate, Zürich-style",
        "                                     “quotes” and a tab",
        "policy-rate         monetary-policy  ECB deposit facility",
        "                                     rate",
        "",
      ].join("\n"),
    );
  });

  it("leaves out the columns kept last, and names them, rather than cut a slug", () => {
    expect(renderTable(indicators, data, 45)).toBe(
      [
        "slug                name",
        "------------------  -------------------------",
        "consumer-prices-us  US consumer prices:",
        "                    CPI-U, the all-items",
        "                    index and its 12-month",
        "                    change",
        "euro-area-hicp      Euro area HICP – flash",
        "                    estimate, Zürich-style",
        "                    “quotes” and a tab",
        "policy-rate         ECB deposit facility rate",
        // The line naming what was left out wraps to the width too.
        "left out to fit 45 columns: category",
        "(COLUMNS=N sets the width)",
        "",
      ].join("\n"),
    );
  });

  it("says when there are no rows", () => {
    expect(renderTable(indicators, { indicators: [] }, 80)).toBe("(no rows)\n");
  });
});

describe("query rows for a pipe", () => {
  it("are tab-separated: a header row, values whole and undecorated, a tab or line break inside a value made a space", () => {
    const lines = renderTsv(indicators, data).split("\n");
    expect(lines).toEqual([
      "slug\tcategory\tname",
      `consumer-prices-us\tprices\t${data.indicators[0]!.name}`,
      "euro-area-hicp\tprices\tEuro area HICP – flash estimate, Zürich-style “quotes” and a tab",
      "policy-rate\tmonetary-policy\tECB deposit facility rate",
      "",
    ]);
  });

  it("are a header row alone when there are none", () => {
    expect(renderTsv(indicators, { indicators: [] })).toBe("slug\tcategory\tname\n");
  });

  it("stay RFC 4180 CSV with --csv", () => {
    expect(renderCsv(indicators, { indicators: [{ slug: "a", category: "b", name: 'say "hi", then go' }] })).toBe(
      'slug,category,name\r\na,b,"say ""hi"", then go"\r\n',
    );
  });
});

describe("the line saying more rows exist", () => {
  const both = { limit: true, cursor: true };
  it("names the count, the total when known, and the flags that get the rest", () => {
    expect(pageNote(5, { totalMatching: 243 }, { limit: true, cursor: false })).toBe(
      "showing 5 of 243; --limit N for more",
    );
    expect(pageNote(5, { nextCursor: "bzoz" }, both)).toBe(
      "showing 5, more exist; --limit N or --cursor bzoz for more",
    );
    expect(pageNote(5, { totalMatching: 243, nextCursor: "bzoz" }, both)).toBe(
      "showing 5 of 243; --limit N or --cursor bzoz for more",
    );
    expect(pageNote(3, { nextCursor: "bzoz", truncated: true }, both)).toBe(
      "showing 3, more exist; --limit N or --cursor bzoz for more; the answer was cut to fit the response size ceiling",
    );
  });

  it("is absent when every row is shown", () => {
    expect(pageNote(5, { totalMatching: 5 }, both)).toBeNull();
    expect(pageNote(5, { nextCursor: null }, both)).toBeNull();
    expect(pageNote(5, { nextCursor: null, truncated: false }, both)).toBeNull();
    expect(pageNote(0, {}, both)).toBeNull();
  });
});
