// The dev server also serves MSW's service worker script, from the msw package, at
// /mockServiceWorker.js (only while serving: it is never copied into public/, so never into the
// production build).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';

function mswWorkerScript(): Plugin {
  const file = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js');
  return {
    name: 'msw-worker-script',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/mockServiceWorker.js', (_request, response, next) => {
        readFile(file).then((script) => {
          response.setHeader('Content-Type', 'text/javascript');
          response.end(script);
        }, next);
      });
    },
  };
}

export default defineConfig({
  plugins: [mswWorkerScript()],
  // The page uses top-level await (the development-only mock start).
  build: { target: 'es2022' },
});
