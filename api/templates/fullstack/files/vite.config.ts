import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import sourceTags from "./vite-source-tags";

// Vite runs inside server/index.js (one port for the client and the API). Previews arrive on hosts like
// 3000-<sandbox>.<domain>: accept them all. sourceTags (development only) marks elements with their file:line
// for the preview's Select to edit.
export default defineConfig({
  plugins: [sourceTags(), react()],
  server: { allowedHosts: true },
});
