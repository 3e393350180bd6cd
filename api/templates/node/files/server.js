import { createServer } from "node:http";

// Listen on every interface so the preview can reach the server.
const port = Number(process.env.PORT ?? 3000);
createServer((req, res) => {
  if (req.url === "/api/health") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify({ status: "ok" }));
  }
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end("<!doctype html><title>Node App</title><h1>Hello from Node.js</h1><p>Edit server.js to change this page.</p>");
}).listen(port, "0.0.0.0", () => console.log(`Started: http://0.0.0.0:${port}`));
