// The front layer: a node:http server in the mock's own process that every request reaches
// before Prism (a child process, see index.mjs). It refuses what would crash or mislead Prism,
// with the spec's ErrorResponse:
//
//   malformed percent-escape in the URL   400  (Prism throws URIError and dies)
//   body over the cap (--max-body)        413  (Prism reads 10 MB, slowly, one request at a time)
//   unparseable or too deeply nested JSON 400  (Prism: its own body, or a 500)
//   a method the path does not declare    405 with Allow (mock mode)
//   a Prefer the operation cannot honour  400 listing what it declares (mock mode)
//
// answers HEAD with the GET answer's headers, and rewrites Prism's error answers: problem+json
// bodies become ErrorResponse, and a refused request's canned 400 example becomes the list of
// the fields Prism found wrong (unless `Prefer: example=…` asked for an example). Everything else
// is piped through untouched. Every refusal says why in `sl-violations`, as Prism does.
import http from 'node:http';
import { isJsonType, jsonProblem, readBody } from './body.mjs';
import { detailsOf, fromProblem, parseViolations, violation } from './errors.mjs';
import { checkPreferences } from './prefer.mjs';
import { allowedMethods } from './routes.mjs';

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade'];
const MAX_VIOLATIONS_HEADER = 8 * 1024 - 100; // Prism's own cap for the header

function violationsHeader(violations) {
  const value = JSON.stringify(violations);
  return value.length > MAX_VIOLATIONS_HEADER ? `Too many violations! ${value.slice(0, MAX_VIOLATIONS_HEADER)}` : value;
}

/** The first malformed percent-escape of a URL part, or null. */
function malformedEscape(text) {
  if (!text.includes('%')) return null;
  try {
    decodeURIComponent(text);
    return null;
  } catch {
    return /%(?![0-9a-fA-F]{2})|%[0-9a-fA-F]{2}/.exec(text)?.[0] ?? '%';
  }
}

/**
 * Where a URL is malformed: the path parameter or query parameter holding a bad escape, or the
 * path itself. Null when every part decodes.
 */
function malformedPart(rawPath, rawQuery, route) {
  const segments = rawPath.split('/');
  for (const segment of segments) {
    if (malformedEscape(segment) === null) continue;
    const field = route ? Object.entries(route.params).find(([, value]) => value === segment)?.[0] : undefined;
    return { field, where: field ? `the path parameter ${field}` : 'the path', value: segment };
  }
  for (const pair of rawQuery ? rawQuery.split('&') : []) {
    const [name, value = ''] = pair.split('=');
    if (malformedEscape(name) !== null) return { where: 'a query parameter name', value: name };
    if (malformedEscape(value) !== null) return { field: malformedEscape(name) === null ? decodeURIComponent(name.replace(/\+/g, ' ')) : undefined, where: `the query parameter ${name}`, value };
  }
  return null;
}

/**
 * @param {object} options
 * @param {'mock'|'proxy'} options.mode
 * @param {() => {routes: ReturnType<import('./routes.mjs').createRoutes>}} options.current the routes being served
 * @param {(failed?: object) => Promise<{port: number, agent: http.Agent}>} options.upstream Prism's address, once
 *   it answers; given the Prism a request just failed on, waits to see whether that one died
 * @param {number} options.maxBody bytes
 * @param {number} options.maxDepth nesting levels of a JSON body
 * @param {(exchange: object) => void} options.onExchange told of every answer Prism gave
 * @param {(line: string) => void} options.log
 */
export function createFrontServer({ mode, current, upstream, maxBody, maxDepth, onExchange, log }) {
  function answer(req, res, status, errors, { violations = [], headers = {}, close = false } = {}) {
    if (res.headersSent) { res.destroy(); return; }
    const body = JSON.stringify({ errors });
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'access-control-allow-origin': req.headers.origin || '*',
      'access-control-expose-headers': '*',
      ...(violations.length ? { 'sl-violations': violationsHeader(violations) } : {}),
      ...(close ? { connection: 'close' } : {}),
      ...headers,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function handle(req, res) {
    const target = req.url;
    if (!target.startsWith('/')) {
      answer(req, res, 400, [{ reason: 'The request target must be a path, such as /v4/regions.' }], { violations: [violation(['request', 'path'], 'MALFORMED_URL', target)] });
      return;
    }
    const q = target.indexOf('?');
    const rawPath = q < 0 ? target : target.slice(0, q);
    const rawQuery = q < 0 ? '' : target.slice(q + 1);
    const { routes } = current();
    const route = routes.match(rawPath);

    const malformed = malformedPart(rawPath, rawQuery, route);
    if (malformed) {
      const reason = `The URL is malformed: "${malformed.value}" in ${malformed.where} is not valid percent-encoding (every % must start a %XX escape of UTF-8 bytes).`;
      answer(req, res, 400, [malformed.field ? { field: malformed.field, reason } : { reason }], { violations: [violation(['request', malformed.field ? 'path' : 'url'], 'MALFORMED_URL', reason)] });
      req.resume();
      return;
    }

    let method = req.method;
    let op = route?.operations.get(method);
    if (!op && method === 'HEAD' && route?.operations.has('GET')) {
      op = route.operations.get('GET');
      method = 'GET'; // Prism has no HEAD; the GET answer is sent without its body
    }
    if (route && !op && mode === 'mock' && method !== 'OPTIONS') {
      const allow = allowedMethods(route);
      answer(req, res, 405, [{ reason: `${method} is not an operation of ${route.template}; it answers ${allow.join(', ')}.` }], {
        headers: { allow: allow.join(', ') }, violations: [violation(['request', 'method'], 'NO_METHOD_MATCHED_ERROR', `${route.template} has no ${method} operation`)],
      });
      req.resume();
      return;
    }

    const headers = { ...req.headers };
    let askedExample = false;
    if (mode === 'mock' && op) {
      const preferences = checkPreferences(op, headers.prefer, new URLSearchParams(rawQuery));
      if (preferences.error) {
        answer(req, res, 400, [{ reason: preferences.error }], { violations: [violation(['request', 'header', 'prefer'], 'PREFER', preferences.error)] });
        req.resume();
        return;
      }
      if (preferences.prefer) headers.prefer = preferences.prefer;
      askedExample = preferences.example !== undefined;
    }

    let body;
    if (headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')) {
      const read = await readBody(req, maxBody);
      if (read.aborted) { res.destroy(); return; }
      if (read.tooLarge) {
        answer(req, res, 413, [{ reason: `The body is larger than this mock accepts (${maxBody} bytes; --max-body changes it).` }], {
          close: true, violations: [violation(['request', 'body'], 'PAYLOAD_TOO_LARGE', `over ${maxBody} bytes`)],
        });
        if (read.drop) res.on('finish', () => req.socket?.destroy());
        return;
      }
      body = read.body;
      const problem = isJsonType(headers['content-type']) ? jsonProblem(body, maxDepth) : null;
      if (problem) {
        answer(req, res, 400, [{ reason: problem }], { violations: [violation(['request', 'body'], 'INVALID_JSON', problem)] });
        return;
      }
      delete headers['transfer-encoding'];
      headers['content-length'] = String(body.length);
    } else {
      req.resume();
    }
    for (const name of HOP_BY_HOP) delete headers[name];
    if (mode === 'proxy') headers['accept-encoding'] = 'identity'; // Prism re-serializes bodies; a compressed one would keep its stale header

    await forward(req, res, { method, headers, body, op, route, askedExample });
  }

  async function forward(req, res, exchange) {
    let prism;
    try {
      prism = await upstream(exchange.failedOn);
    } catch (error) {
      answer(req, res, 503, [{ reason: `The mock cannot answer: ${error.message}` }], { violations: [violation(['request'], 'UNAVAILABLE', error.message)] });
      return;
    }
    const upstreamReq = http.request({
      host: '127.0.0.1', port: prism.port, agent: prism.agent, method: exchange.method, path: req.url, headers: exchange.headers,
    });
    upstreamReq.setTimeout(120_000, () => upstreamReq.destroy(new Error('Prism did not answer within 120 s')));
    upstreamReq.on('response', (upstreamRes) => relay(req, res, upstreamRes, exchange));
    upstreamReq.on('error', (error) => {
      if (res.headersSent) { res.destroy(); return; }
      // Prism went away mid-request (a crash, a kill). The mock keeps no state: ask the next one.
      if (mode === 'mock' && !exchange.failedOn) {
        forward(req, res, { ...exchange, failedOn: prism });
        return;
      }
      answer(req, res, 502, [{ reason: `Prism stopped before answering: ${error.message}.` }], { violations: [violation(['response'], 'UPSTREAM_ERROR', error.message)] });
    });
    upstreamReq.end(exchange.body);
  }

  // A `not` rule fails without naming a field in Prism's words; the schema says which.
  function explain(details, requestViolations, exchange) {
    if (!exchange.op || !exchange.body || !requestViolations.some((v) => v.code === 'not' && v.location?.[1] === 'body')) return details;
    let value;
    try { value = JSON.parse(exchange.body.toString('utf8')); } catch { return details; }
    const fields = current().routes.forbiddenFields(exchange.op, value);
    if (!fields.length) return details;
    const named = details.filter((d) => d.field !== undefined || !/must not be valid/i.test(d.reason));
    return [...named, ...fields.map((field) => ({ field, reason: 'This field is not allowed together with the other fields sent (a rule of this operation; its description says when).' }))];
  }

  function relay(req, res, upstreamRes, exchange) {
    const status = upstreamRes.statusCode;
    const violations = parseViolations(upstreamRes.headers['sl-violations']);
    const isProblem = String(upstreamRes.headers['content-type'] || '').startsWith('application/problem+json');
    const requestViolations = violations.filter((v) => v.location?.[0] === 'request');
    const refusedWithExample = mode === 'mock' && !exchange.askedExample && (status === 400 || status === 422) && requestViolations.some((v) => v.code !== 401);
    const told = (answered) => onExchange({ op: exchange.op, method: exchange.method, path: req.url, status: answered, violations, problem: isProblem });

    if (status < 400 || (!isProblem && !refusedWithExample)) {
      told(status);
      const headers = { ...upstreamRes.headers };
      for (const name of HOP_BY_HOP) delete headers[name];
      res.writeHead(status, headers);
      if (req.method === 'HEAD') { upstreamRes.resume(); res.end(); } else upstreamRes.pipe(res);
      return;
    }
    const chunks = [];
    upstreamRes.on('data', (chunk) => chunks.push(chunk));
    upstreamRes.on('error', () => res.destroy());
    upstreamRes.on('end', () => {
      const passOn = {};
      for (const name of ['www-authenticate', 'retry-after']) if (upstreamRes.headers[name]) passOn[name] = upstreamRes.headers[name];
      if (isProblem) {
        let problem = null;
        try { problem = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { /* not JSON after all */ }
        const mapped = fromProblem(problem, { proxy: mode === 'proxy', method: exchange.method, path: req.url.split('?')[0], parameters: exchange.op?.parameters });
        told(mapped.status);
        answer(req, res, mapped.status, mapped.errors, { violations: mapped.violations, headers: passOn });
        return;
      }
      told(400);
      answer(req, res, 400, explain(detailsOf(requestViolations, exchange.op?.parameters), requestViolations, exchange), { violations, headers: passOn });
    });
  }

  const server = http.createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    handle(req, res).catch((error) => {
      log(`✖ the mock's front layer failed on ${req.method} ${req.url}: ${error.stack || error.message}`);
      answer(req, res, 500, [{ reason: `The mock failed on this request: ${error.message}` }]);
    });
  });
  // Requests Node's parser refuses (bad request line, bad headers) still get an ErrorResponse.
  server.on('clientError', (error, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') { socket.destroy(); return; }
    const body = JSON.stringify({ errors: [{ reason: `The request is not valid HTTP: ${error.code || error.message}.` }] });
    socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
  return server;
}
