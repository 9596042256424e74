// A small static file server for the built site (`npm start`, the browser test): GET and HEAD
// only, files under one folder only, `index.html` for a folder.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const docsDistDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.yml': 'application/yaml; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file under `root` that a request path names, or null when it would leave `root`. */
export function resolveRequestPath(root, requestPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(requestPath.split(/[?#]/)[0]);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const full = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  return full === root || full.startsWith(`${root}${path.sep}`) ? full : null;
}

async function fileFor(root, requestPath) {
  const full = resolveRequestPath(root, requestPath);
  if (!full) return null;
  const info = await stat(full).catch(() => null);
  if (info?.isFile()) return { file: full, size: info.size };
  if (info?.isDirectory()) {
    const index = path.join(full, 'index.html');
    const indexInfo = await stat(index).catch(() => null);
    if (indexInfo?.isFile()) return { file: index, size: indexInfo.size };
  }
  return null;
}

/**
 * Serves `root` until `stop()`.
 * @param {{ root?: string, port?: number, host?: string, json?: Record<string, () => unknown>,
 *   routes?: Record<string, (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => void> }} [options]
 *   port 0 picks a free port; `json` answers these paths with what the function returns now, as
 *   JSON (`npm start` tells the page's "Try it" console where the mock and the server are:
 *   /try-it/targets.json); `routes` answers these paths itself (`npm run dev`'s live channel,
 *   src/live.mjs).
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void> }>}
 */
export async function serveStatic({ root = docsDistDir, port = 8080, host = '127.0.0.1', json = {}, routes = {} } = {}) {
  const base = path.resolve(root);
  const server = createServer(async (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      response.end('Method not allowed\n');
      return;
    }
    const pathname = new URL(request.url, 'http://localhost').pathname;
    if (Object.hasOwn(routes, pathname)) {
      routes[pathname](request, response);
      return;
    }
    if (Object.hasOwn(json, pathname)) {
      const body = `${JSON.stringify(json[pathname]())}\n`;
      response.writeHead(200, { 'content-type': TYPES['.json'], 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : body);
      return;
    }
    const found = await fileFor(base, pathname);
    if (!found) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found\n');
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[path.extname(found.file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': found.size,
      'cache-control': 'no-cache',
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    createReadStream(found.file).on('error', () => response.destroy()).pipe(response);
  });
  await new Promise((resolve, reject) => {
    server.once('error', (error) => reject(error.code === 'EADDRINUSE'
      ? new Error(`port ${port} on ${host} is in use: set DOCS_PORT to another port.`)
      : error));
    server.listen(port, host, resolve);
  });
  const chosen = server.address().port;
  let stopping = null;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${chosen}/`,
    port: chosen,
    stop() {
      stopping ??= new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}
