/**
 * The service's resident memory over the soak run, sampled from the kernel (VmRSS), and the judgement whether it stayed
 * flat. A leak under steady load shows as a curve that keeps rising after warm-up; caches filling to their bound show
 * as a rise that stops, which the warm-up allowance and the comparison of thirds are there to tell apart.
 */
export interface MemorySample {
  atSeconds: number;
  /** Null when the process could not be read (it had exited). */
  residentMb: number | null;
}

export interface MemoryVerdict {
  warmUpSeconds: number;
  /** Averages over the first and last third of the samples taken after warm-up. */
  firstThirdMb: number;
  lastThirdMb: number;
  growth: number;
  maxGrowth: number;
  peakMb: number;
  flat: boolean;
  reason: string;
}

export function startMemorySampler(residentMb: () => number, everyMs: number): { stop(): MemorySample[] } {
  const started = performance.now();
  const samples: MemorySample[] = [];
  const sample = () => {
    let value: number | null;
    try {
      value = residentMb();
    } catch {
      value = null;
    }
    samples.push({ atSeconds: Math.round((performance.now() - started) / 1000), residentMb: value });
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return samples;
    },
  };
}

const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Flat: the last third after warm-up averages at most `maxGrowth` (0.2 = 20 %) above the first third. */
export function judgeMemory(samples: readonly MemorySample[], warmUpSeconds: number, maxGrowth: number): MemoryVerdict {
  const read = samples.filter((sample) => sample.residentMb !== null).map((sample) => sample.residentMb!);
  const peakMb = read.length === 0 ? 0 : Math.max(...read);
  const judged = samples.filter((sample) => sample.atSeconds >= warmUpSeconds);
  const base = { warmUpSeconds, maxGrowth, peakMb };
  if (samples.some((sample) => sample.residentMb === null)) {
    return {
      ...base,
      firstThirdMb: 0,
      lastThirdMb: 0,
      growth: 0,
      flat: false,
      reason: "the service could not be read at some sample (it had exited)",
    };
  }
  if (judged.length < 3) {
    return {
      ...base,
      firstThirdMb: 0,
      lastThirdMb: 0,
      growth: 0,
      flat: false,
      reason: `only ${judged.length} samples after warm-up; at least 3 are needed`,
    };
  }
  const third = Math.floor(judged.length / 3);
  const firstThirdMb = average(judged.slice(0, third).map((sample) => sample.residentMb!));
  const lastThirdMb = average(judged.slice(-third).map((sample) => sample.residentMb!));
  const growth = lastThirdMb / firstThirdMb - 1;
  const flat = growth <= maxGrowth;
  const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
  const reason = `last third ${lastThirdMb.toFixed(1)} MB vs first third ${firstThirdMb.toFixed(1)} MB after ${warmUpSeconds} s of warm-up: ${percent(growth)} (limit ${percent(maxGrowth)})`;
  return { ...base, firstThirdMb, lastThirdMb, growth, flat, reason };
}

/** The curve as text: one line per sample with a bar, so a trend is visible in a terminal or a CI log. */
export function printMemoryCurve(samples: readonly MemorySample[], warmUpSeconds: number): void {
  const peak = Math.max(1, ...samples.map((sample) => sample.residentMb ?? 0));
  console.log("\nService resident memory (VmRSS)");
  for (const sample of samples) {
    const value = sample.residentMb;
    const bar = value === null ? "(not readable)" : "#".repeat(Math.round((value / peak) * 50));
    const mark = sample.atSeconds < warmUpSeconds ? " warm-up" : "";
    console.log(
      `${String(sample.atSeconds).padStart(5)} s  ${value === null ? "    -" : value.toFixed(1).padStart(6)} MB  ${bar}${mark}`,
    );
  }
}
