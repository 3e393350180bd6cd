/**
 * The one script the preview proxy adds to a preview's pages (GET /__appbuilder/report.js): the problem
 * reporter (report.js) with the server's ping interval, then the element picker (pick.js) with the origins
 * the app is served from, the only parents whose requests it obeys and to which it sends what was picked.
 *
 * @example
 * servedScript({ pingEveryMs: 10_000, appOrigins: appOriginsOf("https://builder.example.com") });
 */
import { readFileSync } from "node:fs";

/** Where the app runs: exactly `origins`, or (`local`, no PUBLIC_URL) on a loopback host on any port. */
export type AppOrigins = { origins: string[]; local: boolean };

const REPORT = readFileSync(new URL("./report.js", import.meta.url), "utf8");
const PICK = readFileSync(new URL("./pick.js", import.meta.url), "utf8");

/** PUBLIC_URL's origin; without one the server runs locally (localhost, 127.0.0.1, app.localhost…, any port: the dev SPA has its own). */
export function appOriginsOf(publicUrl: string | undefined): AppOrigins {
  return publicUrl ? { origins: [new URL(publicUrl).origin], local: false } : { origins: [], local: true };
}

function replaceLine(script: string, name: string, line: RegExp, value: string): string {
  if (!line.test(script)) throw new Error(`the preview script no longer declares ${name}`);
  return script.replace(line, `var ${name} = ${value};`);
}

export function servedScript(o: { pingEveryMs: number; appOrigins: AppOrigins }): string {
  const report = replaceLine(REPORT, "PING_EVERY_MS", /var PING_EVERY_MS = \d+;/, String(o.pingEveryMs));
  let pick = replaceLine(PICK, "APP_ORIGINS", /var APP_ORIGINS = \[\];/, JSON.stringify(o.appOrigins.origins));
  pick = replaceLine(pick, "LOCAL_APP", /var LOCAL_APP = false;/, String(o.appOrigins.local));
  return `${report}\n${pick}`;
}
