import { defineConfig } from "vite";

// Previews arrive on hosts like 5173-<sandbox>.<domain>; accept them all and listen on every interface.
export default defineConfig({
  server: { host: "0.0.0.0", port: 5173, strictPort: true, allowedHosts: true },
});
