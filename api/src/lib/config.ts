/**
 * Configuration, parsed once from the environment with zod. Nothing set gives the embedded defaults of
 * DESIGN.md §2; each variable switches one part to its production form. A bad or contradictory setting
 * throws a ConfigError naming the variable, and start-up stops there.
 */
import { resolve } from "node:path";
import { TEMPLATE_NAMES, type TemplateName } from "@shared/schemas/sandbox";
import { z } from "zod";

export class ConfigError extends Error {}

const LOCAL_EMULATOR_PROJECT = "demo-app-builder";
const LOCAL_EMULATOR_HOST = "127.0.0.1:9099";

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const boolString = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .optional()
  .transform((v) => v === "true" || v === "1" || v === "yes");

const positiveInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) {
        ctx.addIssue({ code: "custom", message: `must be a positive whole number, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/** A count where 0 switches the limit off. */
const countOrOff = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) {
        ctx.addIssue({ code: "custom", message: `must be a whole number (0 switches the limit off), got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const envSchema = z.object({
  PORT: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return 3000;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) {
        ctx.addIssue({ code: "custom", message: `must be a port number 0-65535, got "${v}"` });
        return z.NEVER;
      }
      return n;
    }),
  HOST: optionalString,
  PUBLIC_URL: optionalString.pipe(z.url({ message: "must be a full URL such as https://builder.example.com" }).optional()),
  DATA_DIR: optionalString,
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  DATABASE_POOL_MAX: positiveInt(10),
  DATABASE_QUERY_TIMEOUT_S: countOrOff(5),
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalString.pipe(z.url({ message: "must be a full URL such as http://127.0.0.1:9000" }).optional()),
  S3_REGION: optionalString,
  S3_FORCE_PATH_STYLE: boolString,
  AWS_ACCESS_KEY_ID: optionalString,
  AWS_SECRET_ACCESS_KEY: optionalString,
  SANDBOX_PROVIDER: optionalString.pipe(z.enum(["local", "e2b"], { message: 'must be "local" or "e2b"' }).optional()),
  E2B_API_KEY: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString.pipe(z.url({ message: "must be a full URL such as http://127.0.0.1:11434/v1" }).optional()),
  OPENAI_MODEL: optionalString,
  PREVIEW_DOMAIN: optionalString.pipe(
    z
      .string()
      .regex(/^[a-z0-9.-]+$/i, "must be a bare domain such as preview.example.com (no scheme or port)")
      .optional(),
  ),
  SANDBOX_IDLE_MINUTES: positiveInt(30),
  SANDBOX_MAX_LIFETIME_MINUTES: countOrOff(720),
  SANDBOX_DISK_MB: countOrOff(2048),
  SANDBOX_DISK_RESERVE_MB: countOrOff(1024),
  SANDBOX_WARM_TEMPLATES: optionalString.transform((v, ctx): TemplateName[] => {
    if (v === undefined) return ["react"];
    if (v === "none") return [];
    const names = v.split(",").map((n) => n.trim()).filter(Boolean);
    const unknown = names.filter((n) => !(TEMPLATE_NAMES as readonly string[]).includes(n));
    if (unknown.length) {
      ctx.addIssue({ code: "custom", message: `must be "none" or a comma-separated list of ${TEMPLATE_NAMES.join(", ")}; got "${unknown.join(", ")}"` });
      return z.NEVER;
    }
    return names as TemplateName[];
  }),
  SEARXNG_URL: optionalString.pipe(z.url({ message: "must be a full URL" }).optional()),
  FIREBASE_PROJECT_ID: optionalString,
  FIREBASE_API_KEY: optionalString,
  FIREBASE_AUTH_DOMAIN: optionalString,
  FIREBASE_AUTH_EMULATOR_HOST: optionalString.pipe(
    z
      .string()
      .regex(/^[^/\s]+:\d+$/, "must be host:port, such as 127.0.0.1:9099 (no http://)")
      .optional(),
  ),
  ALLOW_EMULATED_AUTH_ON_PUBLIC_HOST: boolString,
  MAX_UPLOAD_BYTES: positiveInt(10 * 1024 * 1024),
  MAX_BODY_BYTES: positiveInt(12 * 1024 * 1024),
  MAX_FILES_PER_PROJECT: positiveInt(2000),
  MAX_PROJECT_BYTES: positiveInt(200 * 1024 * 1024),
  RATE_LIMIT_CHAT_PER_MINUTE: countOrOff(20),
  RATE_LIMIT_UPLOADS_PER_MINUTE: countOrOff(30),
  RATE_LIMIT_SHELL_PER_MINUTE: countOrOff(60),
  RUN_STALE_SECONDS: positiveInt(120),
  VERSIONS_KEEP_DAYS: positiveInt(30),
  MODEL_CONTEXT_TOKENS: positiveInt(0),
  MODEL_MAX_OUTPUT_TOKENS: positiveInt(4_096),
  MODEL_VISION: z
    .enum(["true", "false", "1", "0", "yes", "no", ""], { message: 'must be "true" or "false"' })
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1" || v === "yes")),
  AGENT_IDLE_TIMEOUT_S: positiveInt(180),
  AGENT_MAX_RUN_S: positiveInt(20 * 60),
  LOG_LEVEL: optionalString.pipe(z.enum(["debug", "info", "warn", "error"]).optional()),
});

export type AuthConfig =
  | { mode: "firebase"; projectId: string; apiKey: string; authDomain: string }
  | {
      mode: "emulator";
      projectId: string;
      apiKey: string;
      authDomain: string;
      emulatorHost: string;
      /** true when the app itself must start the emulator (nothing was configured). */
      startLocalEmulator: boolean;
    };

export type Config = {
  port: number;
  host: string;
  publicUrl: string | undefined;
  dataDir: string;
  /** queryTimeoutMs: how long a query waits for the server before its connection is discarded (0 = forever). */
  database: { kind: "postgres"; url: string; poolMax: number; queryTimeoutMs: number } | { kind: "embedded"; dir: string; poolMax: number; queryTimeoutMs: number };
  storage:
    | { kind: "s3"; bucket: string; endpoint?: string; region: string; forcePathStyle: boolean; accessKeyId?: string; secretAccessKey?: string }
    | { kind: "local"; dir: string };
  sandbox: { provider: "local" } | { provider: "e2b"; apiKey: string };
  model: { configured: false } | { configured: true; baseUrl?: string; apiKey: string; model: string };
  search: { kind: "none" } | { kind: "searxng"; url: string };
  /** Preview hosts are `<port>-<sandboxId>.<domain>`; scheme and port suffix come from PUBLIC_URL. */
  preview: { domain: string; scheme: "http" | "https"; portSuffix: string };
  sandboxIdleMs: number;
  /** A local sandbox is stopped this long after it started, however busy (0 = never). */
  sandboxMaxLifetimeMs: number;
  /** Local sandboxes: each one's own file system (MB, 0 = no quota) and the host space kept free (MB). */
  sandboxDisk: { sizeMb: number; reserveMb: number };
  /** Templates whose dependency cache the local provider fills at start-up, in the background. */
  sandboxWarmTemplates: TemplateName[];
  auth: AuthConfig;
  limits: { maxUploadBytes: number; maxBodyBytes: number; maxFilesPerProject: number; maxProjectBytes: number };
  /** Per-user requests per window, counted in the database so every instance shares them; 0 = no limit. */
  rateLimits: { windowSeconds: number; chat: number; uploads: number; shell: number };
  /** A 'running' answer not refreshed for this long belongs to a server that died: it is marked failed. */
  runStaleMs: number;
  /** Versions older than this many days are deleted (each project's newest 20 always stay). */
  versionsKeepDays: number;
  agent: {
    /** MODEL_CONTEXT_TOKENS; absent means: ask the endpoint's model metadata, else 32,768. */
    contextTokens: number | undefined;
    maxOutputTokens: number;
    /** Whether attached images are sent to the model (MODEL_VISION, else guessed from the model's name). */
    vision: boolean;
    idleTimeoutMs: number;
    maxRunMs: number;
  };
  logLevel: "debug" | "info" | "warn" | "error";
};

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR ?? "./data");
  const host = e.HOST ?? "127.0.0.1";

  if (!e.S3_BUCKET) {
    for (const name of ["S3_ENDPOINT", "S3_REGION"] as const) {
      if (e[name]) throw new ConfigError(`${name} is set but S3_BUCKET is not: set S3_BUCKET to use S3 storage, or unset ${name}.`);
    }
  }
  if (Boolean(e.AWS_ACCESS_KEY_ID) !== Boolean(e.AWS_SECRET_ACCESS_KEY)) {
    throw new ConfigError("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together.");
  }
  if (e.SANDBOX_PROVIDER === "e2b" && !e.E2B_API_KEY) {
    throw new ConfigError("SANDBOX_PROVIDER=e2b needs E2B_API_KEY.");
  }
  if (e.OPENAI_MODEL && !e.OPENAI_API_KEY && !e.OPENAI_BASE_URL) {
    throw new ConfigError("OPENAI_MODEL is set but neither OPENAI_API_KEY nor OPENAI_BASE_URL is: say which endpoint serves the model.");
  }

  return {
    port: e.PORT,
    host,
    publicUrl: e.PUBLIC_URL,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX, queryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_S * 1000 }
      : // PGlite is one database session behind every socket connection: interleaved connections corrupt each
        // other's extended-protocol state ("portal does not exist"), so embedded mode uses exactly one.
        { kind: "embedded", dir: resolve(dataDir, "pg"), poolMax: 1, queryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_S * 1000 },
    storage: e.S3_BUCKET
      ? {
          kind: "s3",
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION ?? "us-east-1",
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          accessKeyId: e.AWS_ACCESS_KEY_ID,
          secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
        }
      : { kind: "local", dir: resolve(dataDir, "objects") },
    sandbox: e.SANDBOX_PROVIDER === "e2b" ? { provider: "e2b", apiKey: e.E2B_API_KEY! } : { provider: "local" },
    model:
      e.OPENAI_API_KEY || e.OPENAI_BASE_URL
        ? { configured: true, baseUrl: e.OPENAI_BASE_URL, apiKey: e.OPENAI_API_KEY ?? "not-needed", model: e.OPENAI_MODEL ?? "gpt-4o-mini" }
        : { configured: false },
    preview: previewConfig(e.PREVIEW_DOMAIN, e.PUBLIC_URL, e.PORT),
    sandboxIdleMs: e.SANDBOX_IDLE_MINUTES * 60_000,
    sandboxMaxLifetimeMs: e.SANDBOX_MAX_LIFETIME_MINUTES * 60_000,
    sandboxDisk: { sizeMb: e.SANDBOX_DISK_MB, reserveMb: e.SANDBOX_DISK_RESERVE_MB },
    sandboxWarmTemplates: e.SANDBOX_WARM_TEMPLATES,
    search: e.SEARXNG_URL ? { kind: "searxng", url: e.SEARXNG_URL } : { kind: "none" },
    auth: authConfig(e, host),
    limits: {
      maxUploadBytes: e.MAX_UPLOAD_BYTES,
      maxBodyBytes: e.MAX_BODY_BYTES,
      maxFilesPerProject: e.MAX_FILES_PER_PROJECT,
      maxProjectBytes: e.MAX_PROJECT_BYTES,
    },
    rateLimits: {
      windowSeconds: 60,
      chat: e.RATE_LIMIT_CHAT_PER_MINUTE,
      uploads: e.RATE_LIMIT_UPLOADS_PER_MINUTE,
      shell: e.RATE_LIMIT_SHELL_PER_MINUTE,
    },
    runStaleMs: e.RUN_STALE_SECONDS * 1000,
    versionsKeepDays: e.VERSIONS_KEEP_DAYS,
    agent: {
      contextTokens: e.MODEL_CONTEXT_TOKENS || undefined,
      maxOutputTokens: e.MODEL_MAX_OUTPUT_TOKENS,
      vision: e.MODEL_VISION ?? isKnownVisionModel(e.OPENAI_MODEL ?? "gpt-4o-mini"),
      idleTimeoutMs: e.AGENT_IDLE_TIMEOUT_S * 1000,
      maxRunMs: e.AGENT_MAX_RUN_S * 1000,
    },
    logLevel: e.LOG_LEVEL ?? "info",
  };
}

/**
 * Model families that take images, by name (OpenAI, Anthropic, Google, and the open vision models served
 * by Ollama / vLLM / LM Studio). Anything else is assumed text-only; MODEL_VISION overrides the guess.
 */
export function isKnownVisionModel(model: string): boolean {
  const name = model.toLowerCase().split("/").pop() ?? "";
  if (/^(o1-mini|o3-mini|gpt-3\.5|gpt-4-(0613|0314|32k))/.test(name) || /^gpt-4$/.test(name)) return false;
  return /^(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o)|claude-(3|sonnet|opus|haiku)|gemini|gemma-?3|llava|bakllava|vision|-vl\b|vl-|qwen[\d.]*-?vl|minicpm-v|moondream|pixtral|llama-?4|mistral-small-?3\.[12]|internvl|granite.*vision/.test(name);
}

function previewConfig(domain: string | undefined, publicUrl: string | undefined, port: number): Config["preview"] {
  if (publicUrl) {
    const u = new URL(publicUrl);
    return { domain: domain ?? u.hostname, scheme: u.protocol === "https:" ? "https" : "http", portSuffix: u.port ? `:${u.port}` : "" };
  }
  // Browsers resolve *.localhost to loopback, so local previews need no DNS set-up.
  return { domain: domain ?? "localhost", scheme: "http", portSuffix: `:${port}` };
}

function authConfig(e: z.infer<typeof envSchema>, host: string): AuthConfig {
  const loopback = host === "127.0.0.1" || host === "localhost" || host === "::1";
  const emulated = (projectId: string, emulatorHost: string, startLocalEmulator: boolean): AuthConfig => {
    if (!loopback && !e.ALLOW_EMULATED_AUTH_ON_PUBLIC_HOST) {
      throw new ConfigError(
        `Sign-in is emulated (anyone can sign in as anyone) but HOST=${host} is not loopback. ` +
          "Set FIREBASE_PROJECT_ID and FIREBASE_API_KEY for real Google sign-in, or set ALLOW_EMULATED_AUTH_ON_PUBLIC_HOST=true if you really mean it.",
      );
    }
    return {
      mode: "emulator",
      projectId,
      apiKey: e.FIREBASE_API_KEY ?? "demo-api-key",
      authDomain: e.FIREBASE_AUTH_DOMAIN ?? `${projectId}.firebaseapp.com`,
      emulatorHost,
      startLocalEmulator,
    };
  };
  if (e.FIREBASE_AUTH_EMULATOR_HOST) {
    refuseEmulatorMix(e);
    return emulated(e.FIREBASE_PROJECT_ID ?? LOCAL_EMULATOR_PROJECT, e.FIREBASE_AUTH_EMULATOR_HOST, false);
  }
  if (e.FIREBASE_PROJECT_ID) {
    if (!e.FIREBASE_API_KEY) {
      throw new ConfigError("FIREBASE_PROJECT_ID is set but FIREBASE_API_KEY is not: copy both from the Firebase console's web app config.");
    }
    if (e.FIREBASE_PROJECT_ID.startsWith("demo-")) {
      throw new ConfigError(
        `FIREBASE_PROJECT_ID=${e.FIREBASE_PROJECT_ID} is a demo project, which only the Auth emulator serves: set FIREBASE_AUTH_EMULATOR_HOST too, or use a real project id.`,
      );
    }
    return {
      mode: "firebase",
      projectId: e.FIREBASE_PROJECT_ID,
      apiKey: e.FIREBASE_API_KEY,
      authDomain: e.FIREBASE_AUTH_DOMAIN ?? `${e.FIREBASE_PROJECT_ID}.firebaseapp.com`,
    };
  }
  if (e.FIREBASE_API_KEY || e.FIREBASE_AUTH_DOMAIN) {
    throw new ConfigError("FIREBASE_API_KEY or FIREBASE_AUTH_DOMAIN is set without FIREBASE_PROJECT_ID: set FIREBASE_PROJECT_ID too.");
  }
  return emulated(LOCAL_EMULATOR_PROJECT, LOCAL_EMULATOR_HOST, true);
}

/**
 * Emulator mode accepts unsigned tokens that anyone can mint. Beside a real Firebase project (an id without
 * the `demo-` prefix the emulator reserves, or an API key) that would silently open real users' accounts to
 * forged tokens; an emulator reached over the network could be anyone's. Both stop start-up.
 */
function refuseEmulatorMix(e: z.infer<typeof envSchema>): void {
  const emulatorHost = e.FIREBASE_AUTH_EMULATOR_HOST!;
  const projectId = e.FIREBASE_PROJECT_ID;
  if ((projectId && !projectId.startsWith("demo-")) || e.FIREBASE_API_KEY) {
    const real = projectId && !projectId.startsWith("demo-") ? `FIREBASE_PROJECT_ID=${projectId} (a real project)` : "FIREBASE_API_KEY";
    throw new ConfigError(
      `FIREBASE_AUTH_EMULATOR_HOST is set together with ${real}: emulator mode accepts unsigned tokens anyone can make, ` +
        "so it is refused beside a real Firebase project. Unset FIREBASE_AUTH_EMULATOR_HOST for real Google sign-in, " +
        "or use a demo- project id and no FIREBASE_API_KEY with the emulator.",
    );
  }
  const host = emulatorHost.slice(0, emulatorHost.lastIndexOf(":")).replace(/^\[|\]$/g, "");
  if (!(host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host))) {
    throw new ConfigError(
      `FIREBASE_AUTH_EMULATOR_HOST=${emulatorHost} is not a loopback address: the emulator must run on this machine ` +
        `(127.0.0.1 or localhost) for FIREBASE_PROJECT_ID=${projectId ?? LOCAL_EMULATOR_PROJECT}, since whoever answers there decides who is signed in.`,
    );
  }
}

/** One line per part, no secrets: printed at start so an operator sees what the server is using. */
export function describeConfig(c: Config): string[] {
  const db = c.database.kind === "postgres" ? `PostgreSQL at ${redactUrl(c.database.url)}` : `embedded PGlite in ${c.database.dir}`;
  const storage =
    c.storage.kind === "s3"
      ? `S3 bucket "${c.storage.bucket}"${c.storage.endpoint ? ` at ${c.storage.endpoint}` : ""} (${c.storage.region})`
      : `local folder ${c.storage.dir}`;
  const model = c.model.configured ? `"${c.model.model}" at ${c.model.baseUrl ?? "the OpenAI API"}` : "none (set OPENAI_API_KEY or OPENAI_BASE_URL to enable chat)";
  const auth =
    c.auth.mode === "firebase"
      ? `Firebase project "${c.auth.projectId}" (Google sign-in)`
      : `EMULATED via the Firebase Auth emulator at ${c.auth.emulatorHost} (project "${c.auth.projectId}")`;
  return [`database: ${db}`, `storage:  ${storage}`, `sandbox:  ${c.sandbox.provider}`, `model:    ${model}`, `sign-in:  ${auth}`];
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
