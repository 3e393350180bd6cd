import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import sourceTags from "./vite-source-tags";

// Previews arrive on hosts like 5173-<sandbox>.<domain>; accept them all and listen on every interface.
// sourceTags (dev server only) marks elements with their file:line for the preview's Select to edit.
export default defineConfig({
  plugins: [sourceTags(), react(), tailwindcss()],
  server: { host: "0.0.0.0", port: 5173, strictPort: true, allowedHosts: true },
});
