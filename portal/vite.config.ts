// Vite build of the admin portal: served by the API at /portal/ from portal/dist.
// `npx vite --config portal/vite.config.ts` runs a dev server that proxies the API
// (started separately with `npm run dev`, default port 3000; API_URL overrides).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:3000';
const apiPaths = ['/auth', '/staff', '/roles', '/admin', '/actions', '/customers', '/products', '/licenses', '/orders'];

export default defineConfig({
  root,
  base: '/portal/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  server: {
    proxy: Object.fromEntries(apiPaths.map((path) => [path, { target: apiUrl, changeOrigin: true }])),
  },
});
