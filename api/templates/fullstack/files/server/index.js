// One server on one port: /api/* is the API (server/api.js); everything else is the React client, through
// Vite in development (hot reload) and from dist/ in production (`npm run build`, then `npm start`).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { handleApi } from "./api.js";
import { migrate } from "./migrate.js";

const production = process.env.NODE_ENV === "production";
const port = Number(process.env.PORT ?? 3000);
const root = fileURLToPath(new URL("..", import.meta.url));

if (!production) {
  const applied = await migrate();
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
}

const server = createServer();
const client = production ? serveBuilt : await viteMiddleware(server);

server.on("request", (req, res) => {
  if (req.url.startsWith("/api/")) {
    handleApi(req, res).catch((error) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: error.message }));
    });
  } else client(req, res);
});
// Listen on every interface so the preview can reach the server.
server.listen(port, "0.0.0.0", () => console.log(`Started: http://0.0.0.0:${port}`));

async function viteMiddleware(httpServer) {
  const { createServer: createVite } = await import("vite");
  const vite = await createVite({ root, server: { middlewareMode: true, hmr: { server: httpServer } }, appType: "spa" });
  return (req, res) => vite.middlewares(req, res);
}

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json", ".ico": "image/x-icon" };

async function serveBuilt(req, res) {
  const dist = join(root, "dist");
  const path = normalize(join(dist, decodeURIComponent(new URL(req.url, "http://localhost").pathname)));
  const file = path.startsWith(dist) && extname(path) ? path : join(dist, "index.html");
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end("Not found");
  }
}
