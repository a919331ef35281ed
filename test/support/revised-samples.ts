import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_SAMPLES_DIR } from "./publisher-recorded-replies.ts";

/**
 * A copy of the sample archive in which every published value of the three value sources is revised, for a
 * publisher stand-in (`startPublisherStandin({ samplesDir })`) to serve. Runs that alternate between the samples and
 * this copy append a vintage for every value each time, so a run killed at any moment may be killed mid-revision.
 * Modified copies of real recorded documents, made in the test; nothing of it is presented as a publisher's.
 */
export function writeRevisedSamples(dir: string): string {
  cpSync(DEFAULT_SAMPLES_DIR, dir, { recursive: true });
  for (const name of dataFiles(dir, "bls-api")) {
    const document = JSON.parse(readFileSync(name, "utf8")) as {
      Results?: { series?: BlsSeries[] };
      series?: BlsSeries[];
    };
    for (const series of document.Results?.series ?? document.series ?? []) {
      for (const row of series.data ?? []) if (typeof row.value === "string") row.value = revised(row.value);
    }
    writeFileSync(name, JSON.stringify(document));
  }
  for (const name of [...dataFiles(dir, "eurostat-sdmx"), ...dataFiles(dir, "ecb-data")])
    writeFileSync(name, revisedCsv(readFileSync(name, "utf8")));
  return dir;
}

interface BlsSeries {
  data?: { value?: unknown }[];
}

function dataFiles(dir: string, source: string): string[] {
  return readdirSync(join(dir, source))
    .filter((name) => !name.startsWith(".") && !name.endsWith(".md") && !name.endsWith(".fetch.json"))
    .map((name) => join(dir, source, name));
}

/** A different number in the same decimal notation ("5.5" to "5.51", "2" to "2.1"); a non-number (a missing-value mark) stays. */
function revised(value: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(value)) return value;
  return value.includes(".") ? `${value}1` : `${value}.1`;
}

/** Every data row's OBS_VALUE revised; quoting and line ends as they were. */
function revisedCsv(text: string): string {
  const lineEnd = text.includes("\r\n") ? "\r\n" : "\n";
  const [header = "", ...rows] = text.split(lineEnd);
  const column = fieldBounds(header).findIndex(([start, end]) => header.slice(start, end) === "OBS_VALUE");
  if (column < 0) return text;
  return [
    header,
    ...rows.map((row) => {
      const bounds = fieldBounds(row)[column];
      if (!bounds) return row;
      return `${row.slice(0, bounds[0])}${revised(row.slice(bounds[0], bounds[1]))}${row.slice(bounds[1])}`;
    }),
  ].join(lineEnd);
}

/** Start and end offsets of each field of one CSV record (commas inside quotes do not split). */
function fieldBounds(line: string): [number, number][] {
  const bounds: [number, number][] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    else if (line[i] === "," && !quoted) {
      bounds.push([start, i]);
      start = i + 1;
    }
  }
  bounds.push([start, line.length]);
  return bounds;
}
