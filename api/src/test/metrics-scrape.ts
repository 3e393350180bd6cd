/**
 * Reads a Prometheus text exposition as a test needs it: a sample's value by its exact series
 * (`app_runs_total{outcome="complete"}`), and the metric names it exports (each family, and a histogram's
 * `_bucket`, `_sum` and `_count` series).
 *
 * @example
 * const before = await scrape(url);
 * // …work…
 * expect((await scrape(url)).value('app_runs_total{outcome="complete"}') - before.value('app_runs_total{outcome="complete"}')).toBe(1);
 */
export type Scrape = {
  text: string;
  /** The sample's value, 0 when the series is not there (yet). */
  value(series: string): number;
  /** Every metric name a query may use. */
  names: Set<string>;
};

export function parseScrape(text: string): Scrape {
  const samples = new Map<string, number>();
  const names = new Set<string>();
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      names.add(type[1]!);
      if (type[2] === "histogram") for (const suffix of ["_bucket", "_sum", "_count"]) names.add(`${type[1]}${suffix}`);
      continue;
    }
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return { text, value: (series) => samples.get(series) ?? 0, names };
}

export async function scrape(url: string): Promise<Scrape> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  return parseScrape(await res.text());
}
