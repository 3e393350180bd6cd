/**
 * The scan of files that will reach browsers, before a deployment goes live: every text file is searched for
 * the project's secret values (each one as written, and as a JSON string would escape it) and run through
 * secretlint's recommended rules (cloud keys, tokens, private keys, connection strings…), with AWS access key
 * IDs looked for too (off in the preset, but a key ID alone in a bundle is already a leak). Binary files
 * (images, fonts, wasm) are skipped: a NUL byte in the first 8 KB says so. Used for a static site's output and
 * for a server build's client assets alike.
 *
 * @example
 * const findings = await scanClientFiles([{ path: "assets/index.js", bytes }], [{ name: "API_KEY", value: "sk-…" }]);
 * // [{ file: "assets/index.js", rule: "project-secret", line: 1, message: "the value of the secret API_KEY" }]
 */
import type { ScanFinding } from "@shared/schemas/responses";
import { MIN_REDACTED_SECRET_LENGTH } from "@shared/schemas/secrets";
import { lintSource } from "@secretlint/core";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretValue } from "../../lib/secret-redactor";

export type ClientFile = { path: string; bytes: Uint8Array };
export type { ScanFinding };

/** The rule id of a project secret's value found in a file. */
export const PROJECT_SECRET_RULE = "project-secret";
/** At most this many findings are reported: the first ones say enough, and a huge list helps no one. */
const MAX_FINDINGS = 50;

const config = {
  rules: [
    {
      id: "@secretlint/secretlint-rule-preset-recommend",
      rule: recommended,
      rules: [{ id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } }],
    },
  ],
};

const isBinary = (bytes: Uint8Array) => bytes.subarray(0, 8192).includes(0);

const lineAt = (text: string, index: number) => {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
};

/** Where each secret's value shows in `text`: as written, or escaped as a JSON string would carry it. */
function secretFindings(path: string, text: string, secrets: SecretValue[]): ScanFinding[] {
  const found: ScanFinding[] = [];
  for (const s of secrets) {
    const forms = new Set([s.value, JSON.stringify(s.value).slice(1, -1)]);
    for (const form of forms) {
      const at = text.indexOf(form);
      if (at === -1) continue;
      found.push({ file: path, rule: PROJECT_SECRET_RULE, line: lineAt(text, at), message: `the value of the project secret ${s.name}` });
      break;
    }
  }
  return found;
}

/**
 * Every finding in `files`, in path order, at most MAX_FINDINGS. Messages never hold a value: secrets are
 * named, and secretlint's are masked.
 */
export async function scanClientFiles(files: readonly ClientFile[], secretValues: readonly SecretValue[]): Promise<ScanFinding[]> {
  const secrets = secretValues.filter((s) => s.value.length >= MIN_REDACTED_SECRET_LENGTH);
  const decoder = new TextDecoder();
  const findings: ScanFinding[] = [];
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (findings.length >= MAX_FINDINGS) break;
    if (isBinary(file.bytes)) continue;
    const text = decoder.decode(file.bytes);
    findings.push(...secretFindings(file.path, text, secrets));
    const result = await lintSource({
      source: { content: text, filePath: `/${file.path}`, ext: file.path.includes(".") ? `.${file.path.split(".").pop()}` : "", contentType: "text" },
      options: { config, maskSecrets: true, noPhysicFilePath: true },
    });
    for (const m of result.messages) {
      findings.push({ file: file.path, rule: m.ruleId, line: m.loc.start.line, message: m.message });
    }
  }
  return findings.slice(0, MAX_FINDINGS);
}

/** One line per finding, for the build log and the failed publish's message. */
export const describeFinding = (f: ScanFinding) => `${f.file}:${f.line}: ${f.rule}: ${f.message}`;
