/**
 * A user-given remote URL, split into the URL to store and the credentials it carried (which are sealed
 * apart, never stored in the URL). Only HTTP(S) smart-HTTP remotes are supported.
 *
 * @example
 * parseRemoteUrl("https://me:tok@gitea.example.com/me/app.git"); // { url: "https://gitea.example.com/me/app.git", username: "me", password: "tok" }
 */
import { badRequest } from "../../lib/errors";

/** A user-given URL without its credentials (which come back separately), or 400. */
export function parseRemoteUrl(raw: string): { url: string; username?: string; password?: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest("The remote URL is not a valid URL; use the HTTPS clone URL, e.g. https://gitea.example.com/me/app.git.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw badRequest(`${url.protocol} URLs are not supported; use the HTTPS clone URL.`);
  const username = url.username ? decodeURIComponent(url.username) : undefined;
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.username = "";
  url.password = "";
  url.hash = "";
  return { url: url.toString(), username, password };
}
