/**
 * Counts requests on preview hosts and published sites for /metrics: by kind (preview, site) and status
 * class, with the time until the response started. Never the host or path: they would make a series per
 * sandbox and page. A synchronous answer stays synchronous (the site server answers from memory).
 */
import { proxyMetrics, statusClass } from "../lib/metrics";

type Answer = Response | undefined;

export function countProxyRequest<T extends Answer | Promise<Answer>>(kind: "preview" | "site", answer: T, started: number): T {
  const record = (res: Answer) => {
    proxyMetrics.requests.inc({ kind, status_class: statusClass(res?.status) });
    proxyMetrics.duration.observe({ kind }, (performance.now() - started) / 1000);
    return res;
  };
  const failed = (error: unknown) => {
    proxyMetrics.requests.inc({ kind, status_class: "5xx" });
    throw error;
  };
  if (answer instanceof Promise) return answer.then(record, failed) as T;
  record(answer as Answer);
  return answer;
}
