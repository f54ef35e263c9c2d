import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { landingDevServer } from './scripts/landing-dev';

export default defineConfig({
  plugins: [react(), landingDevServer()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/dev': 'http://localhost:3000' },
  },
  build: {
    // WEB_OUT_DIR lets two builds on one machine (parallel journeys) write to separate folders.
    outDir: process.env.WEB_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The public site (landing.html) is a separate, light entry; scripts/prerender.ts fills it in.
    rollupOptions: {
      // packages/core is pure (no I/O, no globals): unused schemas need not ride along with prices.
      treeshake: { moduleSideEffects: (id) => !id.includes('/packages/core/src/') },
      // zod's sources carry comments that mention @__PURE__ where Rollup cannot use it; Rollup just
      // drops such a comment. Not ours to fix, so only that warning, only for installed packages.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/')) return;
        warn(warning);
      },
      input: {
        app: fileURLToPath(new URL('./index.html', import.meta.url)),
        landing: fileURLToPath(new URL('./landing.html', import.meta.url)),
      },
    },
  },
});
