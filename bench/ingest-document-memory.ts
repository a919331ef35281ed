/**
 * Peak resident memory of `service ingest --from-archive` for one large document per source: a recorded publisher
 * document MODIFIED to size by repeating its own records (test/support/padded-documents.ts), generated here at run
 * time and removed afterwards. Sizes: just under the format's ceiling (cli/ingest/document-ceilings.ts), and 19.9 MB,
 * just under the fetch ceiling. Run: node --import tsx bench/ingest-document-memory.ts (about a minute).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { paddedDocument } from "../test/support/padded-documents.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const CASES: { source: string; sample: string; underCeiling: number }[] = [
  { source: "bls-news-feed", sample: "bls-news-feed/bls-latest-constructed.xml", underCeiling: 990_000 },
  { source: "ecb-press-feed", sample: "ecb-press-feed/ecb-press-rss-2026-06-24.xml", underCeiling: 990_000 },
  {
    source: "labour-stats-release-schedule",
    sample: "labour-stats-release-schedule/bls-schedule-2025-2026.ics",
    underCeiling: 1_980_000,
  },
  {
    source: "eu-stats-release-calendar",
    sample: "eu-stats-release-calendar/eurostat-release-calendar-2023-08-01.json",
    underCeiling: 1_850_000,
  },
];
const sizes = (process.env.BENCH_SIZES ?? "").split(",").filter(Boolean).map(Number);

const work = mkdtempSync(join(tmpdir(), "ingest-document-memory-"));
try {
  console.log("source | document bytes | outcome | peak RSS MB");
  for (const { source, sample, underCeiling } of CASES) {
    for (const bytes of sizes.length > 0 ? sizes : [underCeiling, 19_900_000]) {
      const archive = join(work, "archive");
      const dataDir = join(work, "data");
      rmSync(archive, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(join(archive, source), { recursive: true });
      const body = paddedDocument(join(root, "data/samples", sample), bytes);
      writeFileSync(join(archive, source, `modified-padded${sample.slice(sample.lastIndexOf("."))}`), body);
      const run = spawnSync(
        process.execPath,
        ["--import", "tsx", "--import", "./bench/report-max-rss.ts", "cli/main.ts", "ingest"].concat([
          "--data-dir",
          dataDir,
          "--from-archive",
          archive,
          "--source",
          source,
        ]),
        { cwd: root, encoding: "utf8", env: { ...process.env, SERVICE_DATA_DIR: dataDir } },
      );
      const peak = Number(/max-rss-kb (\d+)/.exec(run.stderr)?.[1] ?? Number.NaN) / 1024;
      const outcome = /: (ok|INCOMPLETE) — (.*)$/m.exec(run.stderr);
      console.log(
        `${source} | ${body.length} | ${outcome?.[1] ?? `exit ${run.status}`} ${outcome?.[2]?.slice(0, 90) ?? ""} | ${peak.toFixed(0)}`,
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
