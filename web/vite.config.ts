import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm run dev` (just web-dev) serves the app with hot reload and proxies every API path to a
// running complyd (COMPLYD_URL, default http://127.0.0.1:8080), so the session cookie stays
// same-origin. `npm run build` writes dist/, which the Go binary embeds.
const target = process.env.COMPLYD_URL ?? 'http://127.0.0.1:8080';
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    proxy: {
      '^/complyd\\.v1\\.': { target, changeOrigin: true },
      '/api': { target, changeOrigin: true },
    },
  },
});
