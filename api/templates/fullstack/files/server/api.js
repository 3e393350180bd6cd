// The API: JSON over /api/*. Add routes here; the client calls them with fetch("/api/…").
import { sql } from "./db.js";

export async function handleApi(req, res) {
  const url = new URL(req.url, "http://localhost");
  if (url.pathname === "/api/items" && req.method === "GET") {
    return json(res, 200, await sql`SELECT id, title, done FROM items ORDER BY id`);
  }
  if (url.pathname === "/api/items" && req.method === "POST") {
    const { title } = await readJson(req);
    if (typeof title !== "string" || !title.trim()) return json(res, 400, { error: "title is required" });
    const [item] = await sql`INSERT INTO items (title) VALUES (${title.trim()}) RETURNING id, title, done`;
    return json(res, 201, item);
  }
  const match = url.pathname.match(/^\/api\/items\/(\d+)$/);
  if (match && req.method === "PATCH") {
    const { done } = await readJson(req);
    const [item] = await sql`UPDATE items SET done = ${Boolean(done)} WHERE id = ${Number(match[1])} RETURNING id, title, done`;
    return item ? json(res, 200, item) : json(res, 404, { error: "not found" });
  }
  if (match && req.method === "DELETE") {
    await sql`DELETE FROM items WHERE id = ${Number(match[1])}`;
    return json(res, 204);
  }
  return json(res, 404, { error: "not found" });
}

function json(res, status, body) {
  res.writeHead(status, body === undefined ? {} : { "content-type": "application/json" });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

async function readJson(req) {
  let text = "";
  for await (const chunk of req) text += chunk;
  try {
    return JSON.parse(text || "{}");
  } catch {
    return {};
  }
}
