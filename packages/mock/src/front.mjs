// The front layer: the mock's HTTP server, in the same process as Prism's engine (engine.mjs),
// which it calls for every request it lets through. It refuses what would crash or mislead Prism,
// with the spec's ErrorResponse:
//
//   malformed percent-escape in the URL   400  (Prism throws URIError and dies)
//   body over the cap (--max-body)        413  (Prism reads 10 MB, slowly, one request at a time)
//   unparseable or too deeply nested JSON 400  (Prism: its own body, or a 500)
//   a multipart body that is no readable form 400  (Prism: a 500); a readable one is written
//                                          again in the shape Prism's parser needs (multipart.mjs)
//   a method the path does not declare    405 with Allow (mock mode)
//   a Prefer the operation cannot honour  400 listing what it declares (mock mode)
//
// Before any of that, the trust rules shared with the docs and the server (boundary.mjs: the Host,
// the request target, CORS preflights, CONNECT).
//
// It answers HEAD with the GET answer's headers and CORS for trusted origins only (boundary.mjs),
// and rewrites Prism's errors: problem+json bodies become ErrorResponse, and a refused request's
// canned 400 example becomes the list of the fields Prism found wrong (unless `Prefer: example=…`
// asked for an example). Every refusal says why in `sl-violations`, as Prism does.
import http from 'node:http';
import { createBoundary } from './boundary.mjs';
import { isJsonType, jsonProblem, readBody } from './body.mjs';
import { detailsOf, fromProblem, violation } from './errors.mjs';
import { filterPageBody, readListFilter, withoutFilter } from './filter.mjs';
import { checkPreferences } from './prefer.mjs';
import { canonicalMultipart } from './multipart.mjs';
import { allowedMethods } from './routes.mjs';

const MAX_VIOLATIONS_HEADER = 8 * 1024 - 100; // Prism's own cap for the header
function violationsHeader(violations) {
  // A header value takes no characters outside Latin-1 (Node throws): escape all but ASCII.
  const value = JSON.stringify(violations).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
  for (const segment of rawPath.split('/')) {
    if (malformedEscape(segment) === null) continue;
    const field = route ? Object.entries(route.params).find(([, value]) => value === segment)?.[0] : undefined;
    return { field, where: field ? `the path parameter ${field}` : 'the path', value: segment };
  }
  for (const pair of rawQuery ? rawQuery.split('&') : []) {
    const [name, value = ''] = pair.split('=');
    if (malformedEscape(name) !== null) return { where: 'a query parameter name', value: name };
    if (malformedEscape(value) !== null) return { field: decodeURIComponent(name.replace(/\+/g, ' ')), where: `the query parameter ${name}`, value };
  }
  return null;
}

/**
 * @param {object} options
 * @param {'mock'|'proxy'} options.mode
 * @param {() => {routes: ReturnType<import('./routes.mjs').createRoutes>, engine: {answer: Function}}} options.current
 *   the routes and the Prism engine serving now (a reload swaps both)
 * @param {number} options.maxBody bytes
 * @param {number} options.maxDepth nesting levels of a JSON body
 * @param {(exchange: object) => void} options.onExchange told of every answer Prism gave
 * @param {(line: string) => void} options.log
 * @param {string[]} [options.corsOrigins] origins trusted for browser calls (the rules of `@cloudapi/spec/trust`)
 * @param {string[]} [options.allowedHosts] Host names answered besides IP addresses and localhost (the rules of `@cloudapi/spec/trust`)
 * @param {ReturnType<typeof import('./faults.mjs').createFaultStage> | null} [options.faults] fault injection (faults.mjs)
 */
export function createFrontServer({ mode, current, maxBody, maxDepth, onExchange, log, corsOrigins, allowedHosts, faults = null }) {
  const boundary = createBoundary({ corsOrigins, allowedHosts, log });
  const { corsHeaders } = boundary;
  function answer(req, res, status, errors, { violations = [], headers = {}, close = false } = {}) {
    if (res.headersSent) { res.destroy(); return; }
    const body = JSON.stringify({ errors });
    res.writeHead(status, {
      ...corsHeaders(req),
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...(violations.length ? { 'sl-violations': violationsHeader(violations) } : {}),
      ...(close ? { connection: 'close' } : {}),
      ...headers,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function handle(req, res) {
    if (boundary.stops(req, res, answer)) return;
    const target = req.url; // a path from here on
    const q = target.indexOf('?');
    const rawPath = q < 0 ? target : target.slice(0, q);
    const rawQuery = q < 0 ? '' : target.slice(q + 1);
    const { routes, engine } = current();
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
    if (route && !op && mode === 'mock') {
      const allow = allowedMethods(route);
      answer(req, res, 405, [{ reason: `${method} is not an operation of ${route.template}; it answers ${allow.join(', ')}.` }], {
        headers: { allow: allow.join(', ') }, violations: [violation(['request', 'method'], 'NO_METHOD_MATCHED_ERROR', `${route.template} has no ${method} operation`)],
      });
      req.resume();
      return;
    }

    if (op && faults && await faults.intercept(req, res, op, answer)) return;

    let headers = req.headers;
    // Node keeps only the first of several Authorization headers. Two credentials are ambiguous:
    // the mock refuses them as a server must (401); the proxy passes them on as one field line
    // that the implementation must refuse, rather than forward one of them as if it were alone.
    const credentials = req.rawHeaders.filter((_, i) => i % 2 === 1 && /^authorization$/i.test(req.rawHeaders[i - 1]));
    if (credentials.length > 1 && mode === 'mock') {
      answer(req, res, 401, [{ reason: `Send one Authorization header: this request has ${credentials.length}.` }], {
        headers: { 'www-authenticate': 'Bearer' }, violations: [violation(['request', 'header', 'authorization'], 'UNAUTHORIZED', `${credentials.length} Authorization headers`)],
      });
      req.resume();
      return;
    }
    if (credentials.length > 1) headers = { ...headers, authorization: credentials.join(', ') };
    let askedExample = false;
    if (mode === 'mock' && op) {
      const preferences = checkPreferences(op, headers.prefer, rawQuery.includes('__') ? new URLSearchParams(rawQuery) : undefined);
      if (preferences.error) {
        answer(req, res, 400, [{ reason: preferences.error }], { violations: [violation(['request', 'header', 'prefer'], 'PREFER', preferences.error)] });
        req.resume();
        return;
      }
      if (preferences.prefer) headers = { ...headers, prefer: preferences.prefer };
      askedExample = preferences.example !== undefined;
    }

    // X-Filter: refused here when bad (as the server does), applied to the page Prism answers.
    let listFilter = null;
    if (mode === 'mock' && op) {
      const read = readListFilter(current().filters, op, headers);
      if (read.error) {
        answer(req, res, 400, [read.error], { violations: [violation(['request', 'header', 'x-filter'], 'FILTER', read.error.reason)] });
        req.resume();
        return;
      }
      listFilter = read.filter;
      if (listFilter) headers = withoutFilter(headers);
    }

    // Prism takes a JSON body parsed, any other body as text, and no body as null.
    let body = null;
    let raw;
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
      raw = read.body;
      if (isJsonType(headers['content-type'])) {
        const parsed = jsonProblem(raw, maxDepth);
        if (parsed.problem) {
          answer(req, res, 400, [{ reason: parsed.problem }], { violations: [violation(['request', 'body'], 'INVALID_JSON', parsed.problem)] });
          return;
        }
        body = parsed.value;
      } else if (/^multipart\/form-data\b/i.test(String(headers['content-type']))) {
        const form = await canonicalMultipart(raw, headers['content-type']);
        if (form.problem) {
          answer(req, res, 400, [{ reason: form.problem }], { violations: [violation(['request', 'body'], 'INVALID_MULTIPART', form.problem)] });
          return;
        }
        headers = { ...headers, 'content-type': form.contentType, 'content-length': String(form.body.length) };
        delete headers['transfer-encoding'];
        body = form.body.toString('utf8');
      } else {
        body = raw.toString('utf8');
      }
    } else {
      req.resume();
    }

    let result;
    try {
      result = await engine.answer({ method, url: target, headers, body });
    } catch (error) {
      result = { status: 500, headers: {}, violations: [], problem: { type: error.name, detail: error.message } };
    }
    relay(req, res, result, { method, op, raw, body, askedExample, listFilter });
  }

  function relay(req, res, result, exchange) {
    const { status, violations } = result;
    const requestViolations = violations.filter((v) => v.location?.[0] === 'request');
    const passOn = {};
    for (const [name, value] of Object.entries(result.headers)) if (/^(www-authenticate|retry-after)$/i.test(name)) passOn[name] = value;
    const told = (answered) => onExchange({ op: exchange.op, method: exchange.method, path: req.url, status: answered, violations, problem: Boolean(result.problem) });

    if (result.problem) {
      const mapped = fromProblem(result.problem, { proxy: mode === 'proxy', method: exchange.method, path: req.url.split('?')[0], parameters: exchange.op?.parameters });
      told(mapped.status);
      answer(req, res, mapped.status, mapped.errors, { violations: [...violations, ...mapped.violations], headers: passOn });
      return;
    }
    told(status);
    // The mock refused the request: name the fields Prism found wrong rather than its canned example.
    if (mode === 'mock' && !exchange.askedExample && (status === 400 || status === 422) && requestViolations.some((v) => v.code !== 401)) {
      answer(req, res, 400, explain(detailsOf(requestViolations, exchange.op?.parameters), requestViolations, exchange), { violations, headers: passOn });
      return;
    }
    const text = exchange.listFilter && status === 200 && result.body !== undefined ? filterPageBody(result.body, exchange.listFilter) : result.body;
    const body = text === undefined ? undefined : Buffer.from(text);
    res.writeHead(status, {
      ...boundary.underOwnCors(req, result.headers),
      // In front of an implementation its answers pass as they came (the proxy tells violations
      // on its own output), so a client or the contract kit sees the implementation, not Prism.
      ...(violations.length && mode === 'mock' ? { 'sl-violations': violationsHeader(violations) } : {}),
      'content-length': body ? body.length : 0,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  // A `not` rule fails without naming a field in Prism's words; the schema says which.
  function explain(details, requestViolations, exchange) {
    if (!exchange.op || exchange.body === null || typeof exchange.body !== 'object' || !requestViolations.some((v) => v.code === 'not' && v.location?.[1] === 'body')) return details;
    const fields = current().routes.forbiddenFields(exchange.op, exchange.body);
    if (!fields.length) return details;
    const named = details.filter((d) => d.field !== undefined || !/must not be valid/i.test(d.reason));
    return [...named, ...fields.map((field) => ({ field, reason: 'This field is not allowed together with the other fields sent (a rule of this operation; its description says when).' }))];
  }

  // Node would answer a request without Host itself, with an empty 400: the Host rule answers it.
  const server = http.createServer({ keepAliveTimeout: 5_000, requireHostHeader: false }, (req, res) => {
    handle(req, res).catch((error) => {
      log(`✖ the mock's front layer failed on ${req.method} ${String(req.url).slice(0, 200)}: ${error.stack || error.message}`);
      try {
        answer(req, res, 500, [{ reason: `The mock failed on this request: ${error.message}` }]);
      } catch {
        res.destroy();
      }
    });
  });
  // Requests Node's parser refuses (bad request line, bad headers) and CONNECT still get an ErrorResponse.
  boundary.guard(server);
  return server;
}
