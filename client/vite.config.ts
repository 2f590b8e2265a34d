import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';

// The Rust server serves client/dist at / (with an SPA fallback) and the API under /api on the
// same origin. In development Vite serves the app and forwards /api to the server.
const apiProxy = {
  '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
};

export default defineConfig({
  plugins: [
    react(),
    // Every text file of the build also as .gz and .br (gzip level 9, brotli quality 11, the
    // plugin's defaults), made once here: the server sends the one the browser accepts
    // (docs/performance.md, "Serving the client").
    compression({ algorithms: ['gzip', 'brotliCompress'] }),
  ],
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    // Whole-app renders load lazy pages on first use; on a busy 2-core machine that can pass 5 s.
    testTimeout: 15000,
    unstubGlobals: true,
  },
});
