import { readFile } from 'node:fs/promises';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';
import { textPart } from './src/i18n/parts.ts';

/**
 * `./es.json?part=first` and `?part=later`: a language's texts split in two (src/i18n/parts.ts),
 * read from the one file each language keeps; each a module of its own.
 */
function textParts(): Plugin {
  return {
    name: 'loyalty-text-parts',
    enforce: 'pre',
    async load(id) {
      const match = /^(.*\.json)\?part=(first|later)$/.exec(id);
      if (!match) return null;
      this.addWatchFile(match[1]);
      const texts = JSON.parse(await readFile(match[1], 'utf8')) as Record<string, unknown>;
      return `export default ${JSON.stringify(textPart(texts, match[2] === 'later'))};`;
    },
  };
}

// The Rust server serves client/dist at / (with an SPA fallback) and the API under /api on the
// same origin. In development Vite serves the app and forwards /api to the server.
const apiProxy = {
  '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
};

export default defineConfig({
  plugins: [
    textParts(),
    react(),
    // Every text file of the build also as .gz and .br (gzip level 9, brotli quality 11, the
    // plugin's defaults), made once here: the server sends the one the browser accepts
    // (docs/performance.md, "Serving the client").
    compression({ algorithms: ['gzip', 'brotliCompress'] }),
    // Installable, and opens with no network (docs/operations.md, "Service worker"): a web app
    // manifest, and a service worker (Workbox) that keeps the app's files and answers every
    // navigation with index.html. 'prompt': a new version installs beside the running one and
    // takes over only when every tab of the app is closed, at the next start, never mid-sale.
    // The API is never cached: its answers are a company's live data.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg'],
      manifest: {
        name: 'Puntos Fidelidad',
        short_name: 'Puntos',
        description: 'Programa de puntos: acumular y redimir en caja',
        lang: 'es-CO',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#0f766e',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        // The files as built, not their .gz/.br copies (the browser gets those by encoding).
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/(healthz|readyz|metrics)$/],
        cleanupOutdatedCaches: true,
        clientsClaim: false,
        skipWaiting: false,
      },
    }),
  ],
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      output: {
        // A language's two parts as es-first-*.js and es-later-*.js (`make bench` reads them).
        chunkFileNames: (chunk) => {
          const part = /\?part=(first|later)$/.exec(chunk.facadeModuleId ?? '')?.[1];
          return part ? `assets/[name]-${part}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
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
