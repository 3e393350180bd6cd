import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

// Previews arrive on hosts like 5173-<sandbox>.<domain>; accept them all and listen on every interface.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { host: "0.0.0.0", port: 5173, strictPort: true, allowedHosts: true },
});
