/** Reading the metrics route's answers: a Prometheus text exposition (format 0.0.4) as samples. */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (format 0.0.4): `name{label="value",…} number` lines. */
export function parseExposition(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, name, value] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
        labels[name!] = value!.replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1");
      }
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The value of the one sample with this name and these labels (among possibly more); undefined when there is none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** Metric families declared by `# TYPE` lines. */
export const declaredFamilies = (text: string) =>
  new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]));
