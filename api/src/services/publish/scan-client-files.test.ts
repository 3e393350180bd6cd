/**
 * The client-file scan on its own: a project secret's value (as written, and JSON-escaped), credentials in
 * secretlint's recommended rules' formats (an AWS access key ID and secret key, a GitHub token, a private key),
 * binary files skipped, short values ignored, and messages that never hold the value.
 */
import { describe, expect, test } from "bun:test";
import { describeFinding, PROJECT_SECRET_RULE, scanClientFiles } from "./scan-client-files";

const file = (path: string, text: string) => ({ path, bytes: new TextEncoder().encode(text) });
// Built from parts so this file itself holds no credential a scanner would flag.
const AWS_KEY_ID = ["AKIA", "Q3EGRT7WQL5XMN2P"].join("");
const GITHUB_TOKEN = ["ghp_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");

describe("scanClientFiles", () => {
  test("a project secret's value in a client file is found, named by its secret, on its line", async () => {
    const value = "wx-live-8f2a91c04d7e";
    const findings = await scanClientFiles(
      [file("index.html", "<p>hi</p>"), file("assets/index-B2q4.js", `const a = 1;\nfetch("https://api.weather.test?key=${value}");`)],
      [{ name: "WEATHER_KEY", value }],
    );
    expect(findings).toEqual([{ file: "assets/index-B2q4.js", rule: PROJECT_SECRET_RULE, line: 2, message: "the value of the project secret WEATHER_KEY" }]);
    expect(describeFinding(findings[0]!)).toBe("assets/index-B2q4.js:2: project-secret: the value of the project secret WEATHER_KEY");
    expect(JSON.stringify(findings)).not.toContain(value);
  });

  test("a value escaped as a JSON string would carry it is found too; short values and absent ones are not", async () => {
    const value = 'pa"ss\\word-123';
    const findings = await scanClientFiles(
      [file("data.json", JSON.stringify({ p: value, q: "abc" }))],
      [
        { name: "DB_PASSWORD", value },
        { name: "SHORT", value: "abc" },
        { name: "ABSENT", value: "not-anywhere-here" },
      ],
    );
    expect(findings.map((f) => f.message)).toEqual(["the value of the project secret DB_PASSWORD"]);
  });

  test("credential formats: an AWS access key ID and secret key, a GitHub token; masked in the message", async () => {
    const findings = await scanClientFiles(
      [
        file("assets/aws.js", `const cfg = { accessKeyId: "${AWS_KEY_ID}" };\nconst aws_secret_access_key = "${"k7Q2".repeat(10)}";`),
        file("assets/gh.js", `const token = "${GITHUB_TOKEN}";`),
      ],
      [],
    );
    const rules = findings.map((f) => `${f.file} ${f.rule} ${f.line}`);
    expect(rules).toContain("assets/aws.js @secretlint/secretlint-rule-aws 1");
    expect(rules).toContain("assets/aws.js @secretlint/secretlint-rule-aws 2");
    expect(rules).toContain("assets/gh.js @secretlint/secretlint-rule-github 1");
    expect(JSON.stringify(findings)).not.toContain(AWS_KEY_ID);
    expect(JSON.stringify(findings)).not.toContain(GITHUB_TOKEN);
  });

  test("binary files are skipped; clean text files find nothing", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, ...new TextEncoder().encode(AWS_KEY_ID)]);
    expect(await scanClientFiles([{ path: "logo.png", bytes: png }, file("index.html", "<h1>Hello</h1>")], [{ name: "K", value: "PNG\0\0\0" }])).toEqual([]);
  });
});
