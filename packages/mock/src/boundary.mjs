// The front layer's first stage: the trust rules the mock shares with the docs and the server
// (@cloudapi/spec/trust), before anything else of a request is looked at.
//
//   a Host that is not allowed (DNS rebinding)   403  (400 without a Host, or with two)
//   a request target that is no path            400  (`*`, an absolute URL naming another host);
//                                                    a path starting with // is a 404 here: a URL
//                                                    parser would take it for a host, and Prism did
//   a CORS preflight                             204 for a trusted origin, else 403
//   CONNECT; headers over 16 KiB; unparseable    405; 431; 400 (on the socket)
//
// It also gives every answer its CORS headers (trusted origins only; a refused origin is logged
// once, since the browser hides the refusal from the page) and `nosniff`; in proxy mode over the
// implementation's own CORS headers.
import { violation } from './errors.mjs';
import { createCorsPolicy, createHostRule, firstSightings } from '@cloudapi/spec/trust';

const NOSNIFF = { 'x-content-type-options': 'nosniff' };

/** An ErrorResponse written on a socket Node's HTTP parser gave up on, or that asked for CONNECT. */
function refuseOnSocket(socket, status, statusText, reason) {
  if (!socket.writable) { socket.destroy(); return; }
  const body = JSON.stringify({ errors: [{ reason }] });
  socket.end(`HTTP/1.1 ${status} ${statusText}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n${body}`);
}

/**
 * @param {object} options
 * @param {string[]} [options.corsOrigins] origins trusted for browser calls
 * @param {string[]} [options.allowedHosts] Host names answered besides IP addresses and localhost
 * @param {(line: string) => void} options.log
 */
export function createBoundary({ corsOrigins, allowedHosts, log }) {
  const cors = createCorsPolicy(corsOrigins);
  const hosts = createHostRule(allowedHosts);
  const refusedOrigins = firstSightings();

  /** The CORS headers (and nosniff) of an answer; a page of an untrusted origin is told on the log, once. */
  function corsHeaders(req) {
    const origin = req.headers.origin;
    if (origin !== undefined && !cors.trusts(origin) && refusedOrigins.first(origin)) {
      log(`✖ CORS: ${cors.refusal(origin)} (${req.method} ${String(req.url).slice(0, 120)}; the browser shows the page no answer)`);
    }
    return { ...NOSNIFF, ...cors.headers(origin) };
  }

  return {
    corsHeaders,

    /**
     * Prism's headers (in proxy mode, the implementation's) under the mock's own CORS policy:
     * theirs (`access-control-*`) are dropped, and a `Vary` of theirs is kept beside `origin`.
     */
    underOwnCors(req, headers) {
      const own = corsHeaders(req);
      const kept = {};
      let vary = own.vary;
      for (const [name, value] of Object.entries(headers)) {
        if (/^access-control-/i.test(name)) continue;
        if (/^vary$/i.test(name)) vary = [...new Set([...String(value).split(/\s*,\s*/).filter(Boolean), ...own.vary.split(/\s*,\s*/)])].join(', ');
        else kept[name] = value;
      }
      return { ...kept, ...own, vary };
    },

    /**
     * Answers a request the trust rules stop (a refusal with `answer`, or a preflight) and says
     * true; otherwise sets `req.url` to the target as a path and says false.
     * @param {(req, res, status: number, errors: object[], options?: object) => void} answer the front layer's ErrorResponse writer
     */
    stops(req, res, answer) {
      const verdict = hosts.check(req);
      if (!verdict.ok) {
        answer(req, res, verdict.status, [{ reason: verdict.reason }], { violations: [violation(['request'], 'UNTRUSTED_REQUEST', verdict.reason)] });
      } else if (verdict.target.startsWith('//')) {
        // No operation's path starts with an empty segment, and Prism reads `//x` as a host.
        const path = verdict.target.split('?')[0];
        answer(req, res, 404, [{ reason: `No operation of the API answers ${path.slice(0, 200)}.` }], { violations: [violation(['request', 'path'], 'NO_PATH_MATCHED_ERROR', 'a path starting with //')] });
      } else {
        req.url = verdict.target; // an absolute URL naming this host is served as its path
        const preflight = cors.preflight(req);
        if (!preflight) return false;
        if (preflight.reason) answer(req, res, preflight.status, [{ reason: preflight.reason }], { headers: preflight.headers });
        else { res.writeHead(preflight.status, { ...NOSNIFF, ...preflight.headers, 'content-length': '0' }); res.end(); }
      }
      req.resume();
      return true;
    },

    /** What Node's parser refuses and CONNECT, answered on the socket with an ErrorResponse. */
    guard(server) {
      server.on('clientError', (error, socket) => {
        if (error.code === 'ECONNRESET') { socket.destroy(); return; }
        if (error.code === 'HPE_HEADER_OVERFLOW') refuseOnSocket(socket, 431, 'Request Header Fields Too Large', 'The request headers are larger than the mock reads (16 KiB).');
        else refuseOnSocket(socket, 400, 'Bad Request', `The request is not valid HTTP: ${error.code || error.message}.`);
      });
      server.on('connect', (req, socket) => {
        socket.on('error', () => {});
        refuseOnSocket(socket, 405, 'Method Not Allowed', 'CONNECT is not an operation of the API: the mock is no proxy tunnel.');
      });
    },
  };
}
