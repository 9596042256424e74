// Live docs for `npm run dev`: the docs server tells every open page when the spec changed, and
// the page renders the new spec in place (assets/live.js), keeping the reader's place. Nothing
// here is in the built page: `npm run docs` and plain `npm start` serve it unchanged.
//
// The channel is three routes the docs server mounts (serveStatic's `routes`):
//
//   /  and /index.html   the built page with the live client added (and Redoc's `init` made
//                        reachable to it), and which version of the docs the page holds
//   /_live/events        server-sent events: `docs` {version} when a new docs copy is ready,
//                        `problems` {findings, bundle} with the lint findings of the spec
//   /_live/docs.json     the latest docs-only copy of the bundle and the Try it data, the only
//                        thing a page fetches to show a change (the page itself is 3 MB)
//
// The docs server's boundary (serve.mjs, with the Host rule of @cloudapi/spec/trust) answers
// every route only for a trusted Host: a DNS-rebinding page (another name resolving to
// 127.0.0.1) never gets here. The events and the docs copy also answer only pages of this origin:
// before CVE-2025-24010, Vite's development socket told any web page what the developer was editing.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHostHeader } from '@cloudapi/spec/trust';
import { answerText, docsDistDir } from './serve.mjs';
import { insertBeforeBodyEnd, scriptJson } from './try-it.mjs';

const assetsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'assets');

export const LIVE_EVENTS_PATH = '/_live/events';
export const LIVE_DOCS_PATH = '/_live/docs.json';

// The line of Redocly's page that starts Redoc. Redoc's `init` lives in the page's module scope;
// the live client needs it to render a new spec, so the served page hands it over right there.
export const REDOC_START = "hydrate(__redoc_definition, __redoc_options, document.getElementById('redoc'));";
const REDOC_HANDOVER = "window.cloudapiRedoc = { init, options: __redoc_options }; window.dispatchEvent(new Event('cloudapi:redoc'));";

// More open pages than a designer has tabs: the rest wait (EventSource retries) rather than
// holding sockets open without bound.
const MAX_CLIENTS = 64;
const HEARTBEAT_MS = 20_000;

/**
 * Why a request may not hear the live channel, or null when it may. Only pages of this origin may:
 * a browser names the page's origin (Origin) on cross-origin requests, and says where a request
 * comes from (Sec-Fetch-Site); either naming another origin is refused. A client that is not a
 * browser sends neither. The Host was judged before, at the docs server's boundary; this origin is
 * the one that Host names.
 * @param {{ headers: Record<string, string | string[] | undefined> }} request
 * @returns {string | null}
 */
export function liveRefusal(request) {
  const host = typeof request.headers.host === 'string' ? parseHostHeader(request.headers.host) : null;
  if (!host) return 'the request has no valid Host';
  const own = `http://${host.name}${host.port ? `:${host.port}` : ''}`;
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== own) return 'the page is on another origin';
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'the request comes from another site';
  return null;
}

const refuse = (request, response, reason) => answerText(request, response, 403, `Refused: ${reason}.`);

let clientAssets = null;
const client = () => (clientAssets ??= Object.fromEntries(['live.js', 'live.css'].map((name) => [name, readFileSync(path.join(assetsDir, name), 'utf8')])));

/** The built page with the live client before `</body>` (and, if it cannot be live, why). */
export function livePage(html, { version }) {
  const handedOver = html.includes(REDOC_START);
  const page = handedOver ? html.replace(REDOC_START, `${REDOC_START}\n      ${REDOC_HANDOVER}`) : html;
  const settings = {
    version,
    events: LIVE_EVENTS_PATH.slice(1),
    docs: LIVE_DOCS_PATH.slice(1),
    ...(handedOver ? {} : { error: 'This page cannot show changes by itself: the line that starts Redoc was not found in it (Redocly changed its page; see packages/docs/src/live.mjs). Reload it to see a change.' }),
  };
  const markup = `<script type="application/json" id="cloudapi-live">${scriptJson(settings)}</script>\n`
    + `<style id="cloudapi-live-style">${client()['live.css']}</style>\n`
    + `<script>${client()['live.js']}</script>\n`;
  return insertBeforeBodyEnd(page, markup, 'the live client');
}

/**
 * The live channel of the docs server.
 * @param {{ root?: string }} [options] `root`: the built site
 * @returns {{
 *   routes: Record<string, import('./serve.mjs').Route>,
 *   publishDocs: (docsJson: string, options?: { pageHasIt?: boolean }) => string,
 *   pageBuilt: (version: string) => void,
 *   showProblems: (problems: { findings: object[], bundle: string | null }) => void,
 *   openPages: () => number,
 *   close: () => void,
 * }}
 *   `publishDocs` takes the JSON text of `{ definition, tryIt }` (the docs-only copy of the bundle
 *   and the Try it data) and returns its version; `pageHasIt` says the built page shows it
 *   already. `pageBuilt` says the built page now shows that version.
 */
export function createLiveChannel({ root = docsDistDir } = {}) {
  // Versions are unique to this session, so a page left open from an earlier `npm run dev`
  // takes the docs of this one.
  const session = randomBytes(4).toString('hex');
  let counter = 0;
  const state = { version: `${session}:none`, docs: null, pageVersion: `${session}:built`, problems: { findings: [], bundle: null } };
  const clients = new Set();

  const send = (response, event, data) => response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const broadcast = (event, data) => { for (const client of clients) send(client, event, data); };
  const heartbeat = setInterval(() => { for (const client of clients) client.write(': still here\n\n'); }, HEARTBEAT_MS);
  heartbeat.unref();

  async function page(request, response) {
    // The version first: if the page on disk is newer than it says, the client only renders once more.
    const { pageVersion } = state;
    let html;
    try {
      html = await readFile(path.join(root, 'index.html'), 'utf8');
    } catch {
      return answerText(request, response, 404, 'The docs page is not built yet.');
    }
    const body = livePage(html, { version: pageVersion });
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  function events(request, response) {
    const refusal = liveRefusal(request);
    if (refusal) return refuse(request, response, refusal);
    if (clients.size >= MAX_CLIENTS) return answerText(request, response, 503, `More than ${MAX_CLIENTS} pages are open.`, { 'retry-after': '5' });
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', connection: 'keep-alive',
    });
    if (request.method === 'HEAD') return response.end();
    response.write('retry: 1000\n\n');
    send(response, 'docs', { version: state.version });
    send(response, 'problems', state.problems);
    clients.add(response);
    // The response's close, not the request's: the boundary reads the request to its end at once.
    response.on('close', () => clients.delete(response));
  }

  function docs(request, response) {
    const refusal = liveRefusal(request);
    if (refusal) return refuse(request, response, refusal);
    if (!state.docs) return answerText(request, response, 404, 'No docs published yet.');
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(state.docs), 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : state.docs);
  }

  return {
    routes: { '/': page, '/index.html': page, [LIVE_EVENTS_PATH]: events, [LIVE_DOCS_PATH]: docs },
    publishDocs(docsJson, { pageHasIt = false } = {}) {
      const version = `${session}:${++counter}`;
      state.docs = `{"version":${JSON.stringify(version)},"docs":${docsJson}}`;
      state.version = version;
      if (pageHasIt) state.pageVersion = version;
      broadcast('docs', { version });
      return version;
    },
    pageBuilt(version) {
      state.pageVersion = version;
    },
    showProblems(problems) {
      state.problems = problems;
      broadcast('problems', problems);
    },
    openPages: () => clients.size,
    close() {
      clearInterval(heartbeat);
      for (const client of clients) client.end();
      clients.clear();
    },
  };
}
