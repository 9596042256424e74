// The HTTP side: a Fastify app whose routes, validation, security and response shapes all come
// from the bundle. Handlers (src/areas/*) hold only business rules.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController } from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import type { HandlerContext, HandlerOptions, OperationId } from '../area.js';
import { authenticate } from '../auth.js';
import type { AuthContext, TokenTable } from '../auth.js';
import type { Catalogue } from '../catalogue.js';
import type { Clock } from '../clock.js';
import { ApiError, badRequest, forbidden, unauthorized } from '../errors.js';
import type { ErrorDetail } from '../errors.js';
import { hasAccountGrant } from '../auth.js';
import { recordCreator, requirePermission } from '../permissions.js';
import type { Services } from '../services.js';
import type { ApiSpec, OperationSpec } from '../spec.js';
import type { Store } from '../store/db.js';
import type { Sandbox } from '../../sandbox/index.js';
import { installCors } from './cors.js';
import { afterAnswersInFlight, oneAtATime, oneHost } from './connection.js';
import { ResponseSerialization } from './serialization.js';
import { RequestValidation } from './validation.js';
import { readFilterHeader } from '../filtering/header.js';
import { registerTrafficControls } from './traffic.js';
import type { TrafficOptions } from './traffic.js';

export const BODY_LIMIT = 1024 * 1024; // 1 MiB; larger JSON bodies answer 413
const MAX_JSON_DEPTH = 64;
const INT32_MAX = 2 ** 31 - 1;

export interface AppOptions {
  spec: ApiSpec;
  handlers: Map<string, HandlerOptions<any>>;
  tokens: TokenTable;
  store: Store;
  clock: Clock;
  catalogue: Catalogue;
  services: Services;
  sandbox: Sandbox;
  logLevel: string;
  logStream?: NodeJS.WritableStream;
  /** Origins whose pages may call the server from a browser, besides the docs' own (cors.ts). */
  corsOrigins?: string[];
  /** Extra routes of areas (outside the bundle's operations). */
  extraRoutes: ((app: FastifyInstance) => void | Promise<void>)[];
  /** Fault injection and rate limits (off when absent). */
  traffic?: TrafficOptions;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** A JSON body: rejects `__proto__` keys and nesting deeper than 64 levels with a 400. */
function parseJson(text: string): unknown {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > MAX_JSON_DEPTH) throw badRequest(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    } else if (c === 125 || c === 93) depth--;
  }
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw badRequest(`The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Values no schema bounds but the store cannot hold: integers beyond 32 bits (ids and sizes are
 * 32-bit columns on PostgreSQL) and strings with NUL characters (PostgreSQL text refuses them).
 */
function storableProblems(value: unknown, path: string[], out: ErrorDetail[], depth = 0): void {
  if (out.length >= 20 || depth > MAX_JSON_DEPTH) return;
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) > INT32_MAX) out.push({ field: path.join('.'), reason: `${path.join('.')} must be between -${INT32_MAX} and ${INT32_MAX}` });
  } else if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push({ field: path.join('.'), reason: `${path.join('.')} must not contain NUL characters` });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => storableProblems(item, [...path, String(i)], out, depth + 1));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) storableProblems(item, [...path, key], out, depth + 1);
  }
}

/** Empty, or only white space: a body that says nothing. */
function isBlank(body: string | Buffer): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = typeof body === 'string' ? body.charCodeAt(i) : body[i]!;
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}

function mediaTypeOf(request: FastifyRequest): string {
  return String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The path template as a regular expression, for 405 answers. */
function templateRegex(basePath: string, path: string): RegExp {
  const escaped = `${basePath}${path}`.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]+')}$`);
}

// Validators and serializers compile on first use and are kept per bundle, so servers started
// again in one process (tests, restarts) reuse them.
const compiled = new WeakMap<ApiSpec, { validation: RequestValidation; serialization: ResponseSerialization }>();
function compiledFor(spec: ApiSpec) {
  let tools = compiled.get(spec);
  if (!tools) {
    tools = { validation: new RequestValidation(spec.document), serialization: new ResponseSerialization(spec.document) };
    compiled.set(spec, tools);
  }
  return tools;
}

/** A request being served: what a crash report names. */
export interface RequestInFlight {
  id: string;
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The requests started and not yet answered, oldest first. */
    requestsInFlight(): RequestInFlight[];
  }
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { spec, store, clock, catalogue, services, sandbox, tokens } = options;
  const inFlight = new Map<string, FastifyRequest>();
  const { validation, serialization } = compiledFor(spec);
  const errorBody = serialization.forPointer('#/components/schemas/ErrorResponse');

  const sendError = (reply: FastifyReply, status: number, errors: ErrorDetail[], headers: Record<string, string> = {}) => {
    reply.code(status).headers(headers).type('application/json').send(errorBody({ errors }));
  };

  const app = Fastify({
    logger: { level: options.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // HEAD on every GET path, answered like the GET without its body.
    exposeHeadRoutes: true,
    // Node would answer a request without Host itself, with an empty body: oneHost answers it.
    http: { requireHostHeader: false },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    genReqId: () => randomUUID(),
    // Malformed percent-escapes in the path and the like: a 400, never Fastify's own body.
    frameworkErrors: (error, _request, reply) => {
      sendError(reply, 400, [{ reason: `The request cannot be routed: ${error.message}` }]);
    },
    // After the answers to the requests before it on the connection (a create pipelined before
    // garbage still gets its answer).
    clientErrorHandler: (error, socket) => {
      const body = errorBody({ errors: [{ reason: `Malformed HTTP request: ${(error as NodeJS.ErrnoException).code ?? error.message}` }] });
      afterAnswersInFlight(socket, () => {
        if (!socket.writable) return;
        socket.end(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      });
    },
  });

  app.decorateRequest('auth', null);
  app.decorate('requestsInFlight', () => [...inFlight.values()].map((r) => ({ id: r.id, method: r.method, url: r.url })));
  app.removeAllContentTypeParsers();
  // An empty or blank body is no body, whatever its Content-Type says (clients send bodiless
  // actions as forms, as text, as JSON with a charset).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, isBlank(body as string) ? undefined : parseJson(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Any other media type is read (within the body limit) and, when not blank, left for the
  // operation to refuse by name (400: the body's media type is not one it takes).
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, isBlank(body as Buffer) ? undefined : body);
  });

  // An `Expect` other than 100-continue is ignored (RFC 9110 §10.1.1 allows it), where Node would
  // answer 417 with an empty body.
  app.server.on('checkExpectation', (req, res) => app.server.emit('request', req, res));

  // Hooks on every request take callbacks: an async hook costs a promise per request.
  app.addHook('onRequest', oneAtATime);
  app.addHook('onRequest', oneHost);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    inFlight.set(request.id, request);
    reply.raw.once('close', () => inFlight.delete(request.id));
    done();
  });
  installCors(app, options.corsOrigins ?? [], sendError);

  const routed = new Map<string, OperationSpec>(spec.operations.flatMap((op) => routeUrls(spec.basePath, op).map(({ url }) => [`${op.method} ${url}`, op] as const)));
  registerTrafficControls(app, options.traffic ?? {}, (request) => routed.get(`${request.method} ${request.routeOptions.url}`) ?? null);

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return sendError(reply, error.status, error.errors, error.headers);
    const status = (error as FastifyError).statusCode;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 413, [{ reason: `The request body is larger than ${request.routeOptions.bodyLimit ?? BODY_LIMIT} bytes` }]);
    if (status && status >= 400 && status < 500) return sendError(reply, status, [{ reason: error.message }]);
    request.log.error({ err: error, method: request.method, url: request.url }, 'unexpected failure');
    return sendError(reply, 500, [{ reason: `Internal server error (request id ${request.id})` }]);
  });

  // Not found, or found with another method: 405 with the methods the path has.
  const templates = new Map<string, { regex: RegExp; methods: Set<string> }>();
  for (const op of spec.operations) {
    const entry = templates.get(op.path) ?? { regex: templateRegex(spec.basePath, op.path), methods: new Set<string>() };
    entry.methods.add(op.method);
    templates.set(op.path, entry);
  }
  /** The methods a path is served with (HEAD beside GET, OPTIONS on every path), or none. */
  const allowedOn = (path: string): string[] => {
    const allowed = new Set<string>();
    for (const { regex, methods } of templates.values()) if (regex.test(path)) for (const m of methods) allowed.add(m);
    if (allowed.has('GET')) allowed.add('HEAD');
    if (allowed.size) allowed.add('OPTIONS');
    return [...allowed].sort();
  };
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = allowedOn(path);
    if (allowed.length && !allowed.includes(request.method)) {
      const allow = allowed.join(', ');
      return sendError(reply, 405, [{ reason: `${request.method} is not allowed on this path; allowed: ${allow}` }], { allow });
    }
    return sendError(reply, 404, [{ reason: `No operation at ${request.method} ${path}` }]);
  });
  // OPTIONS: 204 with the path's methods in Allow (what a CORS preflight starts from).
  app.options(`${spec.basePath}/*`, (request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = allowedOn(path);
    if (!allowed.length) return sendError(reply, 404, [{ reason: `No operation at ${path}` }]);
    return reply.code(204).header('allow', allowed.join(', ')).send();
  });

  app.get('/health', async (_request, reply) => {
    try {
      await store.db.selectFrom('tags').select('label').limit(1).execute();
      return reply.code(200).send({ status: 'ok' });
    } catch (error) {
      return reply.code(503).send({ status: 'unavailable', reason: (error as Error).message });
    }
  });

  // Operations that take no body are served where any body is read to its end and dropped
  // unparsed: what a client sends there (a form, text, a stray JSON) cannot fail the request.
  const bodiless = spec.operations.filter((op) => !op.requestBody);
  const withBody = spec.operations.filter((op) => op.requestBody);
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => {
      payload.on('error', (error) => done(error, undefined));
      payload.on('end', () => done(null, undefined));
      payload.resume();
    });
    for (const op of bodiless) addOperation(scope, op);
  });
  for (const op of withBody) addOperation(app, op);

  function addOperation(app: FastifyInstance, op: OperationSpec) {
    const handler = options.handlers.get(op.operationId);
    const urls = routeUrls(spec.basePath, op);
    if (!handler) {
      for (const { url } of urls) {
        app.route({
          method: op.method,
          url,
          handler: async (_request, reply) => sendError(reply, 501, [{ reason: `${op.operationId} (${op.method} ${op.path}) is not implemented by this server: no area serving it was started` }]),
        });
      }
      return;
    }
    const route = operationRoute(op, handler);
    for (const { url, wildcardParam } of urls) {
      app.route({
        method: op.method,
        url,
        onRequest: route.onRequest,
        preValidation: wildcardParam
          ? async (request) => { request.params = { [wildcardParam]: (request.params as Record<string, string>)['*'] }; }
          : undefined,
        handler: route.handle,
      });
    }
  }

  for (const register of options.extraRoutes) await register(app);

  // Node keeps only the first of repeated Authorization headers; two credentials in one request
  // are ambiguous, so they are refused (401) instead of silently using the first.
  function authorizationHeader(op: OperationSpec, request: FastifyRequest): string | undefined {
    if (op.access === 'public') return undefined;
    const raw = request.raw.rawHeaders;
    let count = 0;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (name.length === 13 && (name === 'authorization' || name.toLowerCase() === 'authorization')) count += 1;
    }
    if (count > 1) throw unauthorized('Send one Authorization header, not several');
    return request.headers.authorization;
  }

  function operationRoute(op: OperationSpec, definition: HandlerOptions<any>) {
    const conditionalGrants = new Set(definition.conditionalGrants ?? []);
    const keepNull = new Set(definition.keepNull ?? []);
    const successSerializer = op.success.schemaPointer ? serialization.forPointer(op.success.schemaPointer) : null;
    const validator = () => validation.forOperation(op);

    return {
      onRequest: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        try {
          request.auth = authenticate(op, authorizationHeader(op, request), tokens, conditionalGrants);
          done();
        } catch (error) {
          done(error as Error);
        }
      },
      handle: async (request: FastifyRequest, reply: FastifyReply) => {
        const v = validator();
        const params = request.params as Record<string, unknown>;
        const query = { ...(request.query as Record<string, unknown>) };
        const problems = [...v.params(params), ...v.query(query)];
        readFilterHeader(spec.document, op.operationId, request, query, store.db, problems);
        let body: unknown = request.body;
        const mediaType = op.requestBody && body !== undefined ? mediaTypeOf(request) : '';
        if (!op.requestBody) {
          body = undefined;
        } else if (body === undefined) {
          if (op.requestBody.required) problems.push({ reason: `The request needs a body (${[...op.requestBody.media.keys()].join(' or ')})` });
        } else if (!op.requestBody.media.has(mediaType)) {
          // 400, not 415: every operation that takes a body declares 400 and none 415 (DECISIONS).
          throw badRequest(`The request body is sent as ${mediaType || '(no Content-Type)'}, which this operation does not take: send ${[...op.requestBody.media.keys()].join(' or ')}`);
        } else {
          problems.push(...v.body(body, mediaType));
          // null means "not set" for optional fields: drop it and check the body without it.
          if (!problems.length && body && typeof body === 'object' && !Array.isArray(body)) {
            const entries = Object.entries(body);
            if (entries.some(([key, value]) => value === null && !keepNull.has(key))) {
              body = Object.fromEntries(entries.filter(([key, value]) => value !== null || keepNull.has(key)));
              problems.push(...v.body(body, mediaType));
            }
          }
        }
        if (!problems.length) {
          storableProblems(params, [], problems);
          storableProblems(query, [], problems);
          storableProblems(body, [], problems);
        }
        if (problems.length) throw new ApiError(400, problems);

        const auth = request.auth;
        const ctx: HandlerContext<OperationId> = {
          operation: op,
          params: params as never,
          query: query as never,
          body: body as never,
          auth,
          store,
          db: store.db,
          write: (work) => store.write(work),
          clock,
          catalogue,
          services,
          sandbox,
          requirePermission: (db, entity, id, level) => requirePermission(db, auth, entity, id, level),
          recordCreator: (trx, entity, id) => recordCreator(trx, auth, entity, id),
          requireGrant: (grant) => {
            if (!op.grants.includes(grant)) throw new Error(`${op.operationId} checks grant "${grant}", which its x-account-grants does not list`);
            if (grant === 'unrestricted_user' ? auth?.restricted !== false : !auth || !hasAccountGrant(auth, grant)) {
              throw forbidden(grant === 'unrestricted_user' ? `This request needs an unrestricted user; this token belongs to a restricted one` : `This user lacks the grant ${grant} that this request needs`);
            }
          },
          absoluteUrl: (path) => `${request.protocol}://${request.host || `${request.socket.localAddress}:${request.socket.localPort}`}${path}`,
          request,
          reply,
          log: request.log,
        };
        const result = await definition.handle(ctx);
        reply.code(op.success.status);
        if (!successSerializer) return reply.send();
        return reply.type('application/json').send(successSerializer(result));
      },
    };
  }

  return app;
}

/**
 * The route URLs of an operation: `/v4/volumes/:volumeId`; and where the last path parameter
 * takes values with a slash (image and kernel ids), also the unencoded form `/v4/images/*`, as
 * spec/DECISIONS.md section 9 asks of implementations.
 */
function routeUrls(basePath: string, op: OperationSpec): { url: string; wildcardParam?: string }[] {
  const url = `${basePath}${op.path.replace(/\{([^}]+)\}/g, ':$1')}`;
  const last = /\{([^}]+)\}$/.exec(op.path)?.[1];
  const slashParam = last && op.parameters.find((p) => p.in === 'path' && p.name === last && p.slashValues);
  if (!slashParam) return [{ url }];
  return [{ url }, { url: `${basePath}${op.path.replace(/\{[^}]+\}$/, '*').replace(/\{([^}]+)\}/g, ':$1')}`, wildcardParam: last }];
}
