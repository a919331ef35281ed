import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  blsScheduleDocuments,
  ecbMeetingsDocument,
  ecbStatisticalCalendarDocument,
  eurostatCalendarDocuments,
  type SyntheticDocument,
} from "./calendar-documents.ts";
import { feedDocuments } from "./feed-documents.ts";
import { observationDocuments } from "./observation-documents.ts";
import { planArchive, type SyntheticOptions } from "./plan.ts";
import { registryDocuments } from "./registry-documents.ts";
import { sourcesNote } from "./sources-note.ts";

export { measureIndexPublication, measureIngestion } from "./measure.ts";

export interface SyntheticArchive {
  /** Pass to `service ingest --from-archive`. */
  archiveDir: string;
  /** Pass as `SERVICE_REGISTRY_DIR` or `--registry-dir`. */
  registryDir: string;
  counts: {
    calendarEvents: number;
    releases: number;
    series: number;
    vintages: number;
    documents: number;
    bytes: number;
  };
}

/** The project's own data folder: real recordings and the curated registry live there, never generated files. */
const PROJECT_DATA_DIR = fileURLToPath(new URL("../../data/", import.meta.url));

/**
 * Writes a large synthetic archive in the publishers' own document formats, laid out per source as
 * `service ingest --from-archive` reads it, and the registry that names its releases and series. Everything is
 * labelled synthetic (SOURCES.md, titles, feed names); `outDir` is emptied of a previous generation first.
 */
export function generateSyntheticArchive(outDir: string, options: SyntheticOptions = {}): SyntheticArchive {
  const root = resolve(outDir);
  const insideData = relative(PROJECT_DATA_DIR, root);
  if (insideData === "" || (!insideData.startsWith("..") && !isAbsolute(insideData)))
    throw new Error(`refusing to write synthetic files under ${PROJECT_DATA_DIR}`);
  const plan = planArchive(options);
  const archiveDir = join(root, "archive");
  const registryDir = join(root, "registry");
  rmSync(archiveDir, { recursive: true, force: true });
  rmSync(registryDir, { recursive: true, force: true });

  const counts = {
    calendarEvents: 0,
    releases: plan.releases.length,
    series: plan.series.length,
    vintages: 0,
    documents: 0,
    bytes: 0,
  };
  const write = (document: SyntheticDocument) => {
    mkdirSync(join(archiveDir, document.source), { recursive: true });
    writeFileSync(join(archiveDir, document.source, document.name), document.body);
    counts.documents++;
    counts.bytes += Buffer.byteLength(document.body);
  };
  const calendars = [
    ...blsScheduleDocuments(plan),
    ...eurostatCalendarDocuments(plan),
    ecbMeetingsDocument(plan),
    ecbStatisticalCalendarDocument(plan),
  ];
  for (const document of calendars) {
    write(document);
    counts.calendarEvents += document.body.match(/BEGIN:VEVENT|"recordid"|<div class="doc-title">/g)?.length ?? 0;
  }
  for (const document of observationDocuments(plan)) write(document);
  for (const document of feedDocuments(plan)) write(document);
  counts.vintages = plan.series.length * plan.months.length * plan.vintages;

  mkdirSync(registryDir, { recursive: true });
  for (const [name, entries] of Object.entries(registryDocuments(plan)))
    writeFileSync(join(registryDir, `${name}.json`), `${JSON.stringify(entries, null, 1)}\n`);
  const note = sourcesNote(plan, options);
  writeFileSync(join(root, "SOURCES.md"), note);
  writeFileSync(join(archiveDir, "SOURCES.md"), note);
  writeFileSync(join(registryDir, "README.md"), note);
  return { archiveDir, registryDir, counts };
}

/** `npx tsx bench/synthetic-archive/generate.ts OUTDIR [--events N] [--series N] [--vintages N] [--years N]` */
function main(argv: string[]): void {
  const [outDir, ...rest] = argv;
  if (!outDir || outDir.startsWith("--"))
    throw new Error("usage: generate.ts OUTDIR [--events N] [--series N] [--vintages N] [--years N]");
  const options: SyntheticOptions = {};
  for (let position = 0; position < rest.length; position += 2) {
    const name = rest[position]?.replace(/^--/, "");
    if (!name || !["events", "series", "vintages", "years"].includes(name))
      throw new Error(`unknown option ${rest[position]}`);
    options[name as keyof SyntheticOptions] = Number(rest[position + 1]);
  }
  const started = Date.now();
  const archive = generateSyntheticArchive(outDir, options);
  process.stdout.write(`${JSON.stringify({ ...archive, seconds: (Date.now() - started) / 1000 }, null, 2)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main(process.argv.slice(2));
