/**
 * The start-up summary: one line per part, no secrets, so an operator sees what the server is using.
 *
 * @example
 * for (const line of describeConfig(loadConfig())) console.log(`  ${line}`); // "database: embedded PGlite in …"
 */
import type { Config } from "./index";

/** One line per part, no secrets: printed at start so an operator sees what the server is using. */
export function describeConfig(c: Config): string[] {
  const db = c.database.kind === "postgres" ? `PostgreSQL at ${redactUrl(c.database.url)}` : `embedded PGlite in ${c.database.dir}`;
  const storage =
    c.storage.kind === "s3"
      ? `S3 bucket "${c.storage.bucket}"${c.storage.endpoint ? ` at ${c.storage.endpoint}` : ""} (${c.storage.region})`
      : `local folder ${c.storage.dir}`;
  const others = c.model.configured && c.model.models.length > 1 ? ` (also ${c.model.models.slice(1).join(", ")})` : "";
  const model = c.model.configured
    ? `"${c.model.model}"${others} at ${c.model.baseUrl ?? "the OpenAI API"}`
    : "none (set OPENAI_API_KEY or OPENAI_BASE_URL to enable chat)";
  const auth =
    c.auth.mode === "firebase"
      ? `Firebase project "${c.auth.projectId}" (Google sign-in)`
      : `EMULATED via the Firebase Auth emulator at ${c.auth.emulatorHost} (project "${c.auth.projectId}")`;
  const metrics = c.metricsPort === null ? "off (METRICS_PORT=off)" : `GET /metrics on ${c.host}:${c.metricsPort} (METRICS_PORT)`;
  return [`database: ${db}`, `storage:  ${storage}`, `sandbox:  ${c.sandbox.provider}`, `model:    ${model}`, `sign-in:  ${auth}`, `metrics:  ${metrics}`];
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}
