import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// Vite runs inside server/index.js (one port for the client and the API). Previews arrive on hosts like
// 3000-<sandbox>.<domain>: accept them all.
export default defineConfig({
  plugins: [react()],
  server: { allowedHosts: true },
});
