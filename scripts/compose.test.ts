/**
 * Offline checks of the deployment files: docker-compose.yml with `config` (Docker's `docker compose` where
 * it is installed, else Debian's docker-compose v1; both resolve env_file and interpolation exactly as `up`
 * does, and need no Docker engine), the Caddyfile with Debian's caddy (`validate`, `adapt`), and .env.example
 * against both and against the app's own configuration parser. scripts/setup-test-env.sh installs the tools.
 * Compose runs on a copy of the project's deployment files with .env.example as the .env, as a self-hoster's
 * `cp .env.example .env` would have it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../api/src/lib/config";

const ROOT = resolve(import.meta.dir, "..");
const DOMAIN = "builder.example.com";
// Only what the tools need: variables of the shell running the tests (DATABASE_URL, DOMAIN…) would otherwise
// take precedence over .env.example in compose's interpolation. A fresh HOME keeps caddy's storage out of ours.
const cleanEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: mkdtempSync(join(tmpdir(), "compose-test-")) };
afterAll(() => rmSync(cleanEnv.HOME, { recursive: true, force: true }));
const PROJECT = mkdtempSync(join(tmpdir(), "compose-project-"));
for (const file of ["docker-compose.yml", "Caddyfile", "Dockerfile", "deploy"]) cpSync(join(ROOT, file), join(PROJECT, file), { recursive: true });
cpSync(join(ROOT, ".env.example"), join(PROJECT, ".env"));
afterAll(() => rmSync(PROJECT, { recursive: true, force: true }));

function run(cmd: string[], env: Record<string, string> = {}, cwd = ROOT) {
  const tool = cmd[0]!;
  if (!Bun.which(tool)) throw new Error(`${tool} is not installed: run \`bash scripts/setup-test-env.sh\` (or apt-get install -y ${tool}).`);
  const proc = Bun.spawnSync(cmd, { cwd, env: { ...cleanEnv, ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

/** Docker's compose plugin where it answers, else the standalone v1. */
const composeCommand =
  Bun.spawnSync(["docker", "compose", "version"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0 ? ["docker", "compose"] : ["docker-compose"];
const compose = (...args: string[]) => run([...composeCommand, "-f", "docker-compose.yml", ...args], {}, PROJECT);

type Service = {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: unknown[];
  healthcheck?: unknown;
};
type ComposeConfig = { services: Record<string, Service>; volumes: Record<string, unknown> };

let normalised: ComposeConfig | undefined;
/** `config` prints the file normalised (interpolated, long syntax); v1 has no JSON output, so read its YAML. */
function normalisedCompose(): ComposeConfig {
  if (normalised) return normalised;
  const out = compose("config");
  if (out.code !== 0) throw new Error(out.stderr);
  normalised = Bun.YAML.parse(out.stdout) as ComposeConfig;
  return normalised;
}

describe("docker-compose.yml", () => {
  test("is valid with the documented .env.example", () => {
    const out = compose("config", "-q");
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
  });

  test("the app listens on all interfaces and starts after healthy postgres and a created bucket", () => {
    const { services } = normalisedCompose();
    const app = services.app!;
    expect(app.build).toBeDefined();
    expect(app.environment?.HOST).toBe("0.0.0.0");
    expect(app.depends_on?.postgres).toEqual({ condition: "service_healthy" });
    expect(app.depends_on?.["minio-init"]).toEqual({ condition: "service_completed_successfully" });
    expect(services["minio-init"]!.depends_on?.minio).toEqual({ condition: "service_healthy" });
    expect(services.postgres!.image).toBe("postgres:16.4");
    expect(services.postgres!.healthcheck).toBeDefined();
    expect(services.minio!.healthcheck).toBeDefined();
  });

  test("every piece of data lives in a named volume, and Caddy serves 80 and 443 with the Caddyfile", () => {
    const { services, volumes } = normalisedCompose();
    const mountsOf = (name: string) => services[name]!.volumes ?? [];
    expect(mountsOf("postgres")).toContain("postgres-data:/var/lib/postgresql/data:rw");
    expect(mountsOf("minio")).toContain("minio-data:/data:rw");
    expect(mountsOf("app")).toContain(`app-data:${services.app!.environment!.DATA_DIR}:rw`);
    expect(mountsOf("caddy")).toEqual(
      expect.arrayContaining(["caddy-data:/data:rw", "caddy-config:/config:rw", `${PROJECT}/Caddyfile:/etc/caddy/Caddyfile:ro`]),
    );
    expect(Object.keys(volumes).sort()).toEqual([
      "app-2-data",
      "app-data",
      "caddy-config",
      "caddy-data",
      "grafana-data",
      "minio-data",
      "ollama-data",
      "postgres-data",
      "prometheus-data",
    ]);
    const published = (services.caddy!.ports as { published: number }[]).map((p) => p.published);
    expect(published).toEqual(expect.arrayContaining([80, 443]));
    expect(services.caddy!.environment?.DOMAIN).toBe(DOMAIN);
    expect(services.caddy!.environment?.APP_UPSTREAMS).toBe("app:3000");
  });

  test("an optional second instance (profile two-instances) has the same settings and its own data folder", () => {
    const { services } = normalisedCompose();
    type AppService = Service & { profiles?: string[]; stop_grace_period?: string };
    const app = services.app as AppService;
    const second = services["app-2"] as AppService;
    expect(second.profiles).toEqual(["two-instances"]);
    expect(app.profiles).toBeUndefined();
    expect(second.environment).toEqual(app.environment);
    expect(second.depends_on).toEqual(app.depends_on);
    expect(second.volumes).toEqual(["app-2-data:/app/data:rw"]);
    // Graceful shutdown needs longer than Docker's default 10 s: DRAIN_TIMEOUT_S (25 s) for builds, then 15 s.
    expect(app.stop_grace_period).toBe("45s");
    expect(second.stop_grace_period).toBe("45s");
  });

  test("an optional ollama service (profile ollama) keeps its models in a volume; the app does not depend on it", () => {
    const withProfile = compose("--profile", "ollama", "config", "-q");
    expect({ code: withProfile.code, stderr: withProfile.stderr }).toEqual({ code: 0, stderr: "" });
    const { services } = normalisedCompose();
    const ollama = services.ollama as Service & { profiles?: string[] };
    expect(ollama.profiles).toEqual(["ollama"]);
    expect(ollama.image).toBe("ollama/ollama:0.6.8");
    expect(ollama.volumes).toEqual(["ollama-data:/root/.ollama:rw"]);
    expect(ollama.ports).toBeUndefined();
    expect(ollama.healthcheck).toBeDefined();
    // The window Ollama runs models with is its own setting (its OpenAI API takes none per request).
    expect(ollama.environment?.OLLAMA_CONTEXT_LENGTH).toBe("16384");
    // Started without the profile, the app must not wait for a service that is not there.
    expect(Object.keys(services.app!.depends_on ?? {})).not.toContain("ollama");
    // Pointed at it as the README says, the app's configuration is valid.
    const env = {
      ...services.app!.environment,
      FIREBASE_PROJECT_ID: "my-project",
      FIREBASE_API_KEY: "key",
      E2B_API_KEY: "e2b",
      SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
      OPENAI_BASE_URL: "http://ollama:11434/v1",
      MODELS: "qwen2.5-coder:7b,llama3.1:8b",
      // As the README says: the same number as the server's window.
      MODEL_CONTEXT_TOKENS: ollama.environment!.OLLAMA_CONTEXT_LENGTH!,
    };
    expect(loadConfig(env).model).toMatchObject({ configured: true, baseUrl: "http://ollama:11434/v1", model: "qwen2.5-coder:7b" });
    expect(loadConfig(env).agent.contextTokens).toBe(16_384);
  });

  test("an optional monitoring profile: Prometheus and Grafana, pinned, whose mounted files all exist; the metrics port is never published", () => {
    const withProfile = compose("--profile", "monitoring", "config", "-q");
    expect({ code: withProfile.code, stderr: withProfile.stderr }).toEqual({ code: 0, stderr: "" });
    const { services } = normalisedCompose();
    type Monitoring = Service & { profiles?: string[]; expose?: string[] };
    const prometheus = services.prometheus as Monitoring;
    const grafana = services.grafana as Monitoring;
    expect(prometheus.profiles).toEqual(["monitoring"]);
    expect(grafana.profiles).toEqual(["monitoring"]);
    expect(prometheus.image).toBe("prom/prometheus:v2.54.1");
    expect(grafana.image).toBe("grafana/grafana:11.2.2");
    // Nothing of it is on the host but Grafana on loopback; the app's metrics port is on the compose network only.
    expect(prometheus.ports).toBeUndefined();
    // v1 prints the short form ("127.0.0.1:3001:3000/tcp"), v2 the long one ({ host_ip, published, target }).
    expect(grafana.ports?.length).toBe(1);
    expect(JSON.stringify(grafana.ports)).toMatch(/127\.0\.0\.1.*3000|3000.*127\.0\.0\.1/);
    for (const name of ["app", "app-2"]) {
      expect(services[name]!.ports).toBeUndefined();
      expect((services[name] as Monitoring).expose).toContain("9091");
    }
    expect(Object.keys(services.app!.depends_on ?? {})).not.toContain("prometheus");
    // Every file a monitoring service mounts from the project is there (a typo would start it without its config).
    const binds = [...(prometheus.volumes ?? []), ...(grafana.volumes ?? [])].filter((v) => v.startsWith("/"));
    expect(binds.map((v) => v.split(":")[1])).toEqual([
      "/etc/prometheus/prometheus.yml",
      "/etc/prometheus/alerts.yml",
      "/etc/grafana/provisioning",
      "/var/lib/grafana/dashboards",
    ]);
    for (const bind of binds) {
      const hostPath = bind.split(":")[0]!;
      expect({ hostPath, inProject: hostPath.startsWith(`${PROJECT}/deploy/`), exists: existsSync(hostPath) }).toEqual({
        hostPath,
        inProject: true,
        exists: true,
      });
    }
    // What Prometheus and Grafana read from those folders.
    for (const file of [
      "deploy/grafana/provisioning/datasources/prometheus.yml",
      "deploy/grafana/provisioning/dashboards/dashboards.yml",
      "deploy/grafana/dashboards/app-builder.json",
    ]) {
      expect({ file, exists: existsSync(join(PROJECT, file)) }).toEqual({ file, exists: true });
    }
    const scrape = Bun.YAML.parse(readFileSync(join(PROJECT, "deploy/prometheus/prometheus.yml"), "utf8")) as {
      rule_files: string[];
      scrape_configs: { job_name: string; dns_sd_configs?: { names: string[]; port: number }[] }[];
    };
    expect(scrape.rule_files).toEqual(["/etc/prometheus/alerts.yml"]);
    const app = scrape.scrape_configs.find((c) => c.job_name === "app-builder")!;
    expect(app.dns_sd_configs).toEqual([expect.objectContaining({ names: ["app", "app-2"], port: 9091 })]);
  });

  test("every variable of .env.example reaches both app instances with its value (env_file), in compose's own resolution", () => {
    const { services } = normalisedCompose();
    const example = Object.fromEntries(
      readFileSync(join(ROOT, ".env.example"), "utf8")
        .split("\n")
        .flatMap((line) => {
          const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
          return m ? [[m[1]!, m[2]!]] : [];
        }),
    );
    expect(Object.keys(example)).toContain("MAX_SANDBOXES_PER_USER");
    for (const name of ["app", "app-2"]) {
      const env = services[name]!.environment ?? {};
      const missing = Object.keys(example).filter((key) => !(key in env));
      expect({ name, missing }).toEqual({ name, missing: [] });
      for (const [key, value] of Object.entries(example)) expect({ key, value: env[key] }).toEqual({ key, value });
    }
  });

  test("every image is pinned to a version (no `latest`, no bare major), the Dockerfile's base image too", () => {
    const all = compose("--profile", "two-instances", "--profile", "ollama", "--profile", "monitoring", "config");
    expect(all.code).toBe(0);
    const { services } = Bun.YAML.parse(all.stdout) as ComposeConfig;
    const images = Object.entries(services).map(([name, s]) => ({ name, image: s.image ?? "" }));
    expect(images.length).toBe(9);
    for (const { name, image } of images) {
      // Built here (app, caddy): named `:local`, their bases pinned in their Dockerfiles.
      const pinned = /:(v?\d+\.\d+(\.\d+)?|RELEASE\.[0-9TZ-]+|local)$/.test(image);
      expect({ name, image, pinned }).toEqual({ name, image, pinned: true });
    }
    expect(readFileSync(join(ROOT, "Dockerfile"), "utf8")).toMatch(/^ARG BUN_IMAGE=oven\/bun:\d+\.\d+\.\d+$/m);
    expect(readFileSync(join(ROOT, "deploy/caddy/Dockerfile"), "utf8")).toMatch(/^ARG CADDY_VERSION=\d+\.\d+\.\d+$/m);
  });

  test("the app's environment, once Firebase and E2B keys and SECRETS_KEY are filled in, is a valid production configuration", () => {
    const env = {
      ...normalisedCompose().services.app!.environment,
      FIREBASE_PROJECT_ID: "my-project",
      FIREBASE_API_KEY: "key",
      E2B_API_KEY: "e2b",
      SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
    };
    const config = loadConfig(env);
    expect(config.host).toBe("0.0.0.0");
    expect(config.database.kind).toBe("postgres");
    expect(config.storage).toMatchObject({ kind: "s3", endpoint: "http://minio:9000", forcePathStyle: true });
    expect(config.auth.mode).toBe("firebase");
    expect(config.sandbox.provider).toBe("e2b");
  });
});

describe(".env.example", () => {
  const lines = readFileSync(join(ROOT, ".env.example"), "utf8").split("\n");
  const documented = lines.flatMap((line, i) => {
    const name = /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
    return name ? [{ name, comment: lines[i - 1] ?? "" }] : [];
  });

  test("has a comment line above every variable", () => {
    expect(documented.length).toBeGreaterThan(0);
    for (const { name, comment } of documented) expect({ name, comment: /^# \S/.test(comment) }).toEqual({ name, comment: true });
  });

  test("names every variable docker-compose.yml reads", () => {
    const source = readFileSync(join(ROOT, "docker-compose.yml"), "utf8");
    const used = new Set([...source.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!));
    expect([...used].filter((name) => !documented.some((d) => d.name === name))).toEqual([]);
  });
});

// Debian's caddy has no DNS provider plugin, so most checks adapt the Caddyfile with WILDCARD_TLS=internal;
// the dns variant (compose's default) is checked to fail only for that missing plugin.
describe("Caddyfile", () => {
  test("is valid for a real domain and for localhost", () => {
    for (const domain of [DOMAIN, "localhost"]) {
      const out = run(["caddy", "validate", "--config", "Caddyfile", "--adapter", "caddyfile"], { WILDCARD_TLS: "internal", DOMAIN: domain });
      expect({ domain, code: out.code, stderr: out.code === 0 ? "" : out.stderr }).toEqual({ domain, code: 0, stderr: "" });
      expect(out.stdout + out.stderr).toContain("Valid configuration");
    }
  });

  test("proxies the app, the published sites, the wildcard preview hosts and own domains to the app without buffering", () => {
    const out = run(["caddy", "adapt", "--config", "Caddyfile", "--adapter", "caddyfile"], { WILDCARD_TLS: "internal", DOMAIN });
    expect(out.code).toBe(0);
    const json = JSON.parse(out.stdout);
    const routes = json.apps.http.servers.srv0.routes as { match?: { host: string[] }[]; handle: unknown[] }[];
    // The last one, matching any host, is projects' own domains.
    expect(routes.map((r) => (r.match ? r.match[0]!.host : "any"))).toEqual([[DOMAIN], [`*.sites.${DOMAIN}`], [`*.${DOMAIN}`], "any"]);
    for (const route of routes) {
      const proxies = JSON.stringify(route.handle);
      expect(proxies).toContain('"handler":"reverse_proxy"');
      expect(proxies).toContain('"dial":"app:3000"');
      expect(proxies).toContain('"flush_interval":-1');
    }
    expect(json.apps.http.servers.srv0.listen).toEqual([":443"]);
    // One wildcard certificate per wildcard host, never one per sandbox or site host; only the catch-all site of
    // projects' own domains gets certificates on demand, and only once the app said yes to the name.
    const automation = json.apps.tls.automation as {
      policies: { subjects?: string[]; issuers?: { module: string }[]; on_demand?: boolean }[];
      on_demand: { ask: string };
    };
    expect(automation.policies.find((p) => p.subjects?.includes(`*.${DOMAIN}`))?.issuers).toEqual([{ module: "internal" }]);
    expect(automation.policies.find((p) => p.subjects?.includes(`*.sites.${DOMAIN}`))?.issuers).toEqual([{ module: "internal" }]);
    expect(automation.policies.filter((p) => p.on_demand)).toEqual([{ on_demand: true }]);
    expect(automation.on_demand.ask).toBe("http://app:3000/api/tls/ask");
  });

  test("by default the wildcard certificates come through the ACME DNS challenge of ACME_DNS_PROVIDER", () => {
    const out = run(["caddy", "adapt", "--config", "Caddyfile", "--adapter", "caddyfile"], { DOMAIN, ACME_DNS_PROVIDER: "hetzner" });
    // The only complaint of a Caddy without the plugin; deploy/caddy/Dockerfile builds it in.
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain("module not registered: dns.providers.hetzner");
    const source = readFileSync(join(ROOT, "Caddyfile"), "utf8");
    expect(source).toContain("dns {$ACME_DNS_PROVIDER:cloudflare} {env.ACME_DNS_API_TOKEN}");
    const caddy = normalisedCompose().services.caddy as Service & { build?: { context: string; args: Record<string, string> } };
    expect(caddy.build?.args.CADDY_DNS_PLUGIN).toBe("github.com/caddy-dns/cloudflare");
    expect(caddy.environment?.WILDCARD_TLS).toBe("dns");
  });

  type Proxy = { upstreams: { dial: string }[]; load_balancing: unknown; health_checks: unknown };
  const proxiesOf = (json: unknown) => {
    const found: Proxy[] = [];
    JSON.stringify(json, (_key, value) => (value?.handler === "reverse_proxy" && found.push(value), value));
    return found;
  };

  test("balances across every instance in APP_UPSTREAMS, with active and passive health checks", () => {
    const out = run(["caddy", "adapt", "--config", "Caddyfile", "--adapter", "caddyfile"], {
      WILDCARD_TLS: "internal",
      DOMAIN,
      APP_UPSTREAMS: "app:3000 app-2:3000",
    });
    expect(out.code).toBe(0);
    const proxies = proxiesOf(JSON.parse(out.stdout));
    expect(proxies.length).toBe(4); // the app, the published sites, the preview hosts and own domains
    for (const proxy of proxies) {
      expect(proxy.upstreams).toEqual([{ dial: "app:3000" }, { dial: "app-2:3000" }]);
      expect(proxy.load_balancing).toEqual({ selection_policy: { policy: "round_robin" }, try_duration: 5_000_000_000 });
      expect(proxy.health_checks).toEqual({
        active: { uri: "/api/ready", interval: 5_000_000_000, timeout: 2_000_000_000 },
        passive: { fail_duration: 10_000_000_000 },
      });
    }
  });

  test("keeps /metrics off the public site", () => {
    const json = JSON.parse(run(["caddy", "adapt", "--config", "Caddyfile", "--adapter", "caddyfile"], { WILDCARD_TLS: "internal", DOMAIN }).stdout);
    const site = JSON.stringify(json.apps.http.servers.srv0.routes[0]);
    expect(site).toContain('{"handle":[{"handler":"static_response","status_code":404}],"match":[{"path":["/metrics","/metrics/*"]}]}');
  });

  test("refuses dot segments in any spelling on published sites' hosts, before the app (which sees them resolved)", () => {
    const json = JSON.parse(run(["caddy", "adapt", "--config", "Caddyfile", "--adapter", "caddyfile"], { WILDCARD_TLS: "internal", DOMAIN }).stdout);
    const sites = JSON.stringify(json.apps.http.servers.srv0.routes[1]);
    // Live, with raw request targets: security/site-paths.security.test.ts.
    expect(sites).toContain(
      '{"handle":[{"body":"Bad request","handler":"static_response","status_code":400}],"match":[{"expression":"{http.request.uri.path}.matches(',
    );
  });

  test("with the port in DOMAIN and HTTP_PORT, serves plain HTTP on that port with no certificates (tests, another TLS terminator)", () => {
    const out = run(["caddy", "adapt", "--config", "Caddyfile", "--adapter", "caddyfile"], {
      WILDCARD_TLS: "internal",
      DOMAIN: "localhost:18080",
      HTTP_PORT: "18080",
      OWN_DOMAINS_SITE: "http://",
    });
    expect(out.code).toBe(0);
    const json = JSON.parse(out.stdout);
    expect(Object.values(json.apps.http.servers).map((srv) => (srv as { listen: string[] }).listen)).toEqual([[":18080"]]);
    expect(json.apps.tls?.automation?.policies).toBeUndefined();
  });
});
