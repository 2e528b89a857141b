// Builds the web UI into dist/, which `baton serve` serves as static files. Relative asset
// URLs (`base: "./"`) keep the page working wherever the server mounts it.
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "./",
  plugins: [preact()],
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", sourcemap: false },
});
