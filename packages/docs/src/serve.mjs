// A small static file server for the built site (`npm start`, the browser tests): GET and HEAD
// only, files under one folder only, `index.html` for a folder, and a table of routes that answer
// from code (`/try-it/targets.json`). Every request passes one boundary first: the Host rule and
// the request-target check shared with the mock and the server (@cloudapi/spec/trust), the method,
// and an error boundary, so that no request (`GET //`, `CONNECT`, a broken header) can throw out
// of a handler or stop the process; each refusal is a 4xx in plain text that says why.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHostRule } from '@cloudapi/spec/trust';

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

/**
 * Headers on every answer. The page renders offline from inline scripts and styles, so the policy
 * restricts what a hostile neighbour could use rather than the page's own code: no other site may
 * frame it (a framed Try it console could be clicked through), no plugin, no <base> rewriting its
 * links; no content sniffing; other origins may not embed its files, nor keep a handle on its window.
 */
export const SECURITY_HEADERS = {
  'content-security-policy': "frame-ancestors 'none'; object-src 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
};

const PLAIN = 'text/plain; charset=utf-8';

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

/**
 * A request target in origin-form split into path and query, as written: no URL parser reads it,
 * since one takes `//name` for a host.
 */
function splitTarget(target) {
  const end = target.search(/[?#]/);
  return end < 0 ? { pathname: target, search: '' } : { pathname: target.slice(0, end), search: target.slice(end) };
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

/** Answers `status` with a one-line plain-text reason. */
function answerText(request, response, status, reason, headers = {}) {
  const body = `${reason}\n`;
  response.writeHead(status, { ...headers, 'content-type': PLAIN, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/** The same, on a socket Node's HTTP parser gave up on (no request object to answer through). */
function refuseOnSocket(socket, status, statusText, reason) {
  if (!socket.writable) { socket.destroy(); return; }
  const body = `${reason}\n`;
  const head = [`HTTP/1.1 ${status} ${statusText}`, `content-type: ${PLAIN}`, `content-length: ${Buffer.byteLength(body)}`, 'connection: close',
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`)];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** What Node's parser refused, as a status: headers too large, a timeout, anything else malformed. */
function parserRefusal(error) {
  if (error.code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large', 'The request headers are larger than this server reads (16 KiB).'];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout', 'The request did not arrive in time.'];
  return [400, 'Bad Request', `The request is not valid HTTP (${error.code ?? error.message}).`];
}

/**
 * @typedef {(request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse, url: { pathname: string, search: string }) => void | Promise<void>} Route
 *   answers one path; it runs inside the boundary (a throw is a logged 500, and the server goes on)
 */

/** A route answering what `make()` returns now, as JSON. */
function jsonRoute(make) {
  return (request, response) => {
    const body = `${JSON.stringify(make())}\n`;
    response.writeHead(200, { 'content-type': TYPES['.json'], 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
}

/**
 * Serves `root` until `stop()`.
 * @param {object} [options]
 * @param {string} [options.root] the folder served (the built site)
 * @param {number} [options.port] 0 picks a free port (8080)
 * @param {string} [options.host] the address to listen on (127.0.0.1)
 * @param {Record<string, () => unknown>} [options.json] paths answered with what the function
 *   returns now, as JSON (`npm start` tells the page's "Try it" console where the mock and the
 *   server are: /try-it/targets.json)
 * @param {Record<string, Route>} [options.routes] paths answered by code (GET and HEAD), before files
 * @param {string | string[]} [options.allowedHosts] Host names served besides IP addresses,
 *   localhost and names under .localhost (ALLOWED_HOSTS; the rule of `@cloudapi/spec/trust`)
 * @param {(line: string) => unknown} [options.log] where a failure inside a route is told (stderr)
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void> }>}
 */
export async function serveStatic({ root = docsDistDir, port = 8080, host = '127.0.0.1', json = {}, routes = {}, allowedHosts = [], log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const base = path.resolve(root);
  const hosts = createHostRule(allowedHosts);
  const table = new Map([...Object.entries(json).map(([route, make]) => [route, jsonRoute(make)]), ...Object.entries(routes)]);

  async function serveFile(request, response, { pathname }) {
    const found = await fileFor(base, pathname);
    if (!found) return answerText(request, response, 404, `Nothing is published at ${pathname.slice(0, 200)}.`);
    response.writeHead(200, {
      'content-type': TYPES[path.extname(found.file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': found.size,
      'cache-control': 'no-cache',
    });
    if (request.method === 'HEAD') return response.end();
    createReadStream(found.file).on('error', () => response.destroy()).pipe(response);
  }

  async function handle(request, response) {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    const verdict = hosts.check(request);
    if (!verdict.ok) return answerText(request, response, verdict.status, verdict.reason);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return answerText(request, response, 405, `${request.method} is not served here: this site answers GET and HEAD only.`, { allow: 'GET, HEAD' });
    }
    const url = splitTarget(verdict.target);
    await (table.get(url.pathname) ?? serveFile)(request, response, url);
  }

  // Node would answer a request without Host itself, with an empty 400: the Host rule answers it.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    request.resume(); // a GET's stray body is read and dropped, never left to stall the connection
    handle(request, response).catch((error) => {
      log(`✖ the docs server failed on ${request.method} ${String(request.url).slice(0, 200)}: ${error.stack ?? error.message}`);
      if (response.headersSent) response.destroy();
      else answerText(request, response, 500, 'The docs server failed on this request; its log says why.');
    });
  });
  server.on('clientError', (error, socket) => {
    if (error.code === 'ECONNRESET') { socket.destroy(); return; }
    refuseOnSocket(socket, ...parserRefusal(error));
  });
  // CONNECT (a proxy tunnel) never reaches the request handler: it is refused here.
  server.on('connect', (request, socket) => {
    socket.on('error', () => {});
    refuseOnSocket(socket, 405, 'Method Not Allowed', 'CONNECT is not served here: this site is no proxy and answers GET and HEAD only.');
  });
  await new Promise((resolve, reject) => {
    server.once('error', (error) => reject(error.code === 'EADDRINUSE'
      ? new Error(`port ${port} on ${host} is in use: set DOCS_PORT to another port.`)
      : error));
    server.listen(port, host, resolve);
  });
  server.on('error', (error) => log(`✖ the docs server: ${error.message}`));
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
