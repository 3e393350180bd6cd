/**
 * Counts a provider's sandbox starts for /metrics: every start, the failed ones, and how long a successful
 * one took, labelled by provider. Wraps `create` in place, so every caller (project sandboxes, published
 * servers) is counted without knowing.
 */
import { sandboxMetrics } from "../lib/metrics";
import type { SandboxProvider } from "./types";

export function countSandboxStarts<P extends SandboxProvider>(provider: P): P {
  const create = provider.create.bind(provider);
  const labels = { provider: provider.kind };
  provider.create = async (projectId) => {
    sandboxMetrics.starts.inc(labels);
    const started = performance.now();
    try {
      const sandbox = await create(projectId);
      sandboxMetrics.startSeconds.observe(labels, (performance.now() - started) / 1000);
      return sandbox;
    } catch (error) {
      sandboxMetrics.failures.inc(labels);
      throw error;
    }
  };
  return provider;
}
