// Builds the web UI into dist/, which `baton serve` serves as static files. Relative asset
// URLs (`base: "./"`) keep the page working wherever the server mounts it.
import preact from "@preact/preset-vite";
import { defaultClientConditions, defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "./",
  plugins: [preact()],
  // Baton's packages from their sources, as everywhere in the checkout (no build of them needed first).
  resolve: { conditions: ["@baton/source", ...defaultClientConditions] },
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", sourcemap: false },
});
