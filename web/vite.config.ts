/**
 * Vite config for the SPA. Root is web/, the build lands in web/dist (served by the API in production),
 * and `bun run dev` proxies /api (SSE and WebSocket included) to the API on API_PORT.
 */
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiTarget = `http://127.0.0.1:${process.env.API_PORT || 3000}`;

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react(), tailwindcss()],
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
