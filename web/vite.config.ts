/**
 * Vite config for the SPA. Root is web/, the build lands in web/dist (served by the API in production),
 * and `bun run dev` proxies /api (SSE and WebSocket included) to the API on API_PORT.
 * In development the SPA is opened at http://app.localhost:<WEB_PORT>, the site its previews
 * (`<port>-<id>.app.localhost:<API_PORT>`) share, so the preview frame gets first-party storage; a page opened on
 * localhost is sent there, as the API does (api/src/middleware/local-app-host.ts).
 */
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const toAppLocalhost: Plugin = {
  name: "app-localhost",
  configureServer(server) {
    server.middlewares.use((req, res, next) => {
      const host = /^localhost(:\d+)?$/i.exec(req.headers.host ?? "");
      if (!host || req.method !== "GET" || req.headers["sec-fetch-dest"] !== "document") return next();
      res.statusCode = 302;
      res.setHeader("location", `http://app.localhost${host[1] ?? ""}${req.url ?? "/"}`);
      res.end();
    });
  },
};

const apiTarget = `http://127.0.0.1:${process.env.API_PORT || 3000}`;

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react(), tailwindcss(), toAppLocalhost],
  resolve: {
    // Mirrors tsconfig.json's paths: "@shared/*" → "shared/src/*".
    alias: { "@shared": fileURLToPath(new URL("../shared/src", import.meta.url)) },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // dist/.vite/manifest.json maps each source module to its chunk and imports; bench/bundle-size.ts reads it.
    manifest: true,
    rolldownOptions: {
      output: {
        // Vendor code changes less often than ours: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: "firebase", test: /node_modules[\\/](@firebase|firebase|idb)[\\/]/ },
            // Vite's preload helper gets a group of its own, or it lands in (and drags in) the first group using it.
            { name: "preload-helper", test: /vite[\\/]preload-helper/ },
            { name: "monaco", test: /node_modules[\\/](monaco-editor|@monaco-editor)[\\/]/ },
            // No catch-all "vendor" group: it would gather every library any screen uses (zod, headlessui's
            // menus, jszip...) into one chunk the entry imports, and `/` must stay within 150 KB gzipped
            // (bench/bundle-size.ts). Other libraries go with the chunks that use them.
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { "/api": { target: apiTarget, ws: true } },
  },
});
