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
 * The ErrorResponse answer of the front layer: CORS and `nosniff` as the boundary says, the
 * refusal's reasons in `sl-violations`.
 * @param {(req: http.IncomingMessage) => Record<string, string>} corsHeaders
 */
function answerWith(corsHeaders) {
  return function answer(req, res, status, errors, { violations = [], headers = {}, close = false } = {}) {
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
  };
}

// ---- A request's way through the front layer ------------------------------------------------
// Each step below either answers the request (and returns true: the request stops there) or adds
// what it found to the exchange `x` (the operation, the headers to hand Prism, the body) and lets
// the request go on. `front` holds the layer's settings and its `answer`.

/** What the request addresses: its target split, the route it matches, the routes and engine serving now. */
function exchangeOf(req, { routes, engine }) {
  const target = req.url; // a path once the boundary let it through
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  return { target, rawPath, rawQuery: q < 0 ? '' : target.slice(q + 1), route: routes.match(rawPath), engine, method: req.method, op: undefined, headers: req.headers, body: null, raw: undefined, askedExample: false, listFilter: null };
}

/** An answered refusal of a request whose body is left unread. */
function refuse(front, req, res, status, errors, options) {
  front.answer(req, res, status, errors, options);
  req.resume();
  return true;
}

function refuseMalformedUrl(front, req, res, x) {
  const malformed = malformedPart(x.rawPath, x.rawQuery, x.route);
  if (!malformed) return false;
  const reason = `The URL is malformed: "${malformed.value}" in ${malformed.where} is not valid percent-encoding (every % must start a %XX escape of UTF-8 bytes).`;
  return refuse(front, req, res, 400, [malformed.field ? { field: malformed.field, reason } : { reason }], { violations: [violation(['request', malformed.field ? 'path' : 'url'], 'MALFORMED_URL', reason)] });
}

function refuseUndeclaredMethod(front, req, res, x) {
  x.op = x.route?.operations.get(x.method);
  if (!x.op && x.method === 'HEAD' && x.route?.operations.has('GET')) {
    x.op = x.route.operations.get('GET');
    x.method = 'GET'; // Prism has no HEAD; the GET answer is sent without its body
  }
  if (!x.route || x.op || front.mode !== 'mock') return false;
  const allow = allowedMethods(x.route);
  return refuse(front, req, res, 405, [{ reason: `${x.method} is not an operation of ${x.route.template}; it answers ${allow.join(', ')}.` }], {
    headers: { allow: allow.join(', ') }, violations: [violation(['request', 'method'], 'NO_METHOD_MATCHED_ERROR', `${x.route.template} has no ${x.method} operation`)],
  });
}

function injectFault(front, req, res, x) {
  return x.op && front.faults ? front.faults.intercept(req, res, x.op, front.answer) : false;
}

// Node keeps only the first of several Authorization headers. Two credentials are ambiguous: the
// mock refuses them as a server must (401); the proxy passes them on as one field line that the
// implementation must refuse, rather than forward one of them as if it were alone.
function refuseTwoCredentials(front, req, res, x) {
  const credentials = req.rawHeaders.filter((_, i) => i % 2 === 1 && /^authorization$/i.test(req.rawHeaders[i - 1]));
  if (credentials.length > 1 && front.mode === 'mock') {
    return refuse(front, req, res, 401, [{ reason: `Send one Authorization header: this request has ${credentials.length}.` }], {
      headers: { 'www-authenticate': 'Bearer' }, violations: [violation(['request', 'header', 'authorization'], 'UNAUTHORIZED', `${credentials.length} Authorization headers`)],
    });
  }
  if (credentials.length > 1) x.headers = { ...x.headers, authorization: credentials.join(', ') };
  return false;
}

function applyPreferences(front, req, res, x) {
  if (front.mode !== 'mock' || !x.op) return false;
  const preferences = checkPreferences(x.op, x.headers.prefer, x.rawQuery.includes('__') ? new URLSearchParams(x.rawQuery) : undefined);
  if (preferences.error) return refuse(front, req, res, 400, [{ reason: preferences.error }], { violations: [violation(['request', 'header', 'prefer'], 'PREFER', preferences.error)] });
  if (preferences.prefer) x.headers = { ...x.headers, prefer: preferences.prefer };
  x.askedExample = preferences.example !== undefined;
  return false;
}

// X-Filter: refused here when bad (as the server does), applied to the page Prism answers.
function applyListFilter(front, req, res, x) {
  if (front.mode !== 'mock' || !x.op) return false;
  const read = readListFilter(front.current().filters, x.op, x.headers);
  if (read.error) return refuse(front, req, res, 400, [read.error], { violations: [violation(['request', 'header', 'x-filter'], 'FILTER', read.error.reason)] });
  x.listFilter = read.filter;
  if (x.listFilter) x.headers = withoutFilter(x.headers);
  return false;
}

// Prism takes a JSON body parsed, any other body as text, and no body as null.
function readRequestBody(front, req, res, x) {
  const { headers } = x;
  if (headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')) return takeBody(front, req, res, x);
  req.resume();
  return false;
}

async function takeBody(front, req, res, x) {
  const { headers } = x;
  const read = await readBody(req, front.maxBody);
  if (read.aborted) { res.destroy(); return true; }
  if (read.tooLarge) {
    front.answer(req, res, 413, [{ reason: `The body is larger than this mock accepts (${front.maxBody} bytes; --max-body changes it).` }], {
      close: true, violations: [violation(['request', 'body'], 'PAYLOAD_TOO_LARGE', `over ${front.maxBody} bytes`)],
    });
    if (read.drop) res.on('finish', () => req.socket?.destroy());
    return true;
  }
  x.raw = read.body;
  if (isJsonType(headers['content-type'])) return takeJson(front, req, res, x);
  if (/^multipart\/form-data\b/i.test(String(headers['content-type']))) return takeMultipart(front, req, res, x);
  x.body = x.raw.toString('utf8');
  return false;
}

function takeJson(front, req, res, x) {
  const parsed = jsonProblem(x.raw, front.maxDepth);
  if (parsed.problem) {
    front.answer(req, res, 400, [{ reason: parsed.problem }], { violations: [violation(['request', 'body'], 'INVALID_JSON', parsed.problem)] });
    return true;
  }
  x.body = parsed.value;
  return false;
}

async function takeMultipart(front, req, res, x) {
  const form = await canonicalMultipart(x.raw, x.headers['content-type']);
  if (form.problem) {
    front.answer(req, res, 400, [{ reason: form.problem }], { violations: [violation(['request', 'body'], 'INVALID_MULTIPART', form.problem)] });
    return true;
  }
  x.headers = { ...x.headers, 'content-type': form.contentType, 'content-length': String(form.body.length) };
  delete x.headers['transfer-encoding'];
  x.body = form.body.toString('utf8');
  return false;
}

/** The steps a request takes before Prism's engine sees it, in order. */
const STEPS = [refuseMalformedUrl, refuseUndeclaredMethod, injectFault, refuseTwoCredentials, applyPreferences, applyListFilter, readRequestBody];

/** Prism's answer to the exchange; a throw is a 500 problem, which the relay turns into an ErrorResponse. */
async function engineAnswer(x) {
  try {
    return await x.engine.answer({ method: x.method, url: x.target, headers: x.headers, body: x.body });
  } catch (error) {
    return { status: 500, headers: {}, violations: [], problem: { type: error.name, detail: error.message } };
  }
}

// ---- Prism's answer, relayed ----------------------------------------------------------------

function relay(front, req, res, result, x) {
  const { status, violations } = result;
  const requestViolations = violations.filter((v) => v.location?.[0] === 'request');
  const passOn = {};
  for (const [name, value] of Object.entries(result.headers)) if (/^(www-authenticate|retry-after)$/i.test(name)) passOn[name] = value;
  const told = (answered) => front.onExchange({ op: x.op, method: x.method, path: req.url, status: answered, violations, problem: Boolean(result.problem) });

  if (result.problem) {
    const mapped = fromProblem(result.problem, { proxy: front.mode === 'proxy', method: x.method, path: req.url.split('?')[0], parameters: x.op?.parameters });
    told(mapped.status);
    front.answer(req, res, mapped.status, mapped.errors, { violations: [...violations, ...mapped.violations], headers: passOn });
    return;
  }
  told(status);
  // The mock refused the request: name the fields Prism found wrong rather than its canned example.
  if (front.mode === 'mock' && !x.askedExample && (status === 400 || status === 422) && requestViolations.some((v) => v.code !== 401)) {
    front.answer(req, res, 400, explain(front, detailsOf(requestViolations, x.op?.parameters), requestViolations, x), { violations, headers: passOn });
    return;
  }
  const text = x.listFilter && status === 200 && result.body !== undefined ? filterPageBody(result.body, x.listFilter) : result.body;
  const body = text === undefined ? undefined : Buffer.from(text);
  res.writeHead(status, {
    ...front.boundary.underOwnCors(req, result.headers),
    // In front of an implementation its answers pass as they came (the proxy tells violations
    // on its own output), so a client or the contract kit sees the implementation, not Prism.
    ...(violations.length && front.mode === 'mock' ? { 'sl-violations': violationsHeader(violations) } : {}),
    'content-length': body ? body.length : 0,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

// A `not` rule fails without naming a field in Prism's words; the schema says which.
function explain(front, details, requestViolations, x) {
  if (!x.op || x.body === null || typeof x.body !== 'object' || !requestViolations.some((v) => v.code === 'not' && v.location?.[1] === 'body')) return details;
  const fields = front.current().routes.forbiddenFields(x.op, x.body);
  if (!fields.length) return details;
  const named = details.filter((d) => d.field !== undefined || !/must not be valid/i.test(d.reason));
  return [...named, ...fields.map((field) => ({ field, reason: 'This field is not allowed together with the other fields sent (a rule of this operation; its description says when).' }))];
}

/**
 * @param {object} options
 * @param {'mock'|'proxy'} options.mode
 * @param {() => {routes: ReturnType<import('./routes.mjs').createRoutes>, engine: {answer: Function}, filters: Map<string, any>}} options.current
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
  const answer = answerWith(boundary.corsHeaders);
  const front = { mode, current, maxBody, maxDepth, onExchange, faults, boundary, answer };

  async function handle(req, res) {
    if (boundary.stops(req, res, answer)) return;
    const x = exchangeOf(req, current());
    for (const step of STEPS) {
      // Only the fault and body steps may wait; the others answer at once.
      const answered = step(front, req, res, x);
      if (answered === true || (answered !== false && await answered)) return;
    }
    relay(front, req, res, await engineAnswer(x), x);
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
