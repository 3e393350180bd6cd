/**
 * Figures from samples as the benches print them: ranks, medians, milliseconds, "met"/"NOT met", and the
 * machine's load (figures from a busy machine are noisy, so each bench says how busy it was).
 *
 * @example
 * const s = sortedCopy(latencies);
 * console.log(`p50 ${ms(nearestRank(s, 0.5))}   p99 ${ms(nearestRank(s, 0.99))}   goal: ${verdict(nearestRank(s, 0.99) < 100)}`);
 */
import os from "node:os";

export const sortedCopy = (xs: number[]) => [...xs].sort((a, b) => a - b);

/** Nearest rank: the smallest sample with at least a fraction q of them at or below it (p50 of 4 is the 2nd). */
export const nearestRank = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

/** The sample at index ⌊q·n⌋: for q = 0.5 the middle one, the upper middle one of an even count; NaN when there are none. */
export const atFraction = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** The middle sample, the mean of the two middle ones of an even count. */
export function median(xs: number[]): number {
  const s = sortedCopy(xs);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The upper middle sample (index ⌊n/2⌋ of the sorted samples). */
export const upperMedian = (xs: number[]) => atFraction(sortedCopy(xs), 0.5);

export const ms = (n: number, digits = 1) => `${n.toFixed(digits)} ms`;

export const verdict = (ok: boolean) => (ok ? "met" : "NOT met");

/** The 1-, 5- and 15-minute load averages and the core count, e.g. "1.63 0.95 0.40 (2 cores)". */
export const loadLine = () =>
  `${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`;

/** The 1-minute load average. */
export const loadAverage = () => os.loadavg()[0]!;

/** Printed after the figures when the machine was already busy (1-minute load ≥ 1) before the bench began. */
export function warnIfBusy(loadBefore: number, noisy: string): void {
  if (loadBefore < 1) return;
  console.log(
    `\nWARNING: the machine was already busy before the bench started (1-minute load average ${loadBefore.toFixed(1)} on ` +
      `${navigator.hardwareConcurrency} cores): ${noisy}`,
  );
}
