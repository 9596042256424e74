// The HTTP side: a Fastify app whose routes, validation, security and response shapes all come
// from the bundle; handlers (src/areas/*) hold only business rules. This file puts the stages
// together, in the order a request meets them (as Fastify's own lib/ splits them): the
// connection (connection.ts), the Host rule (trusted-hosts.ts), CORS (cors.ts), traffic controls
// (traffic.ts), body parsing (content-type-parser.ts), the routes (route.ts: authentication.ts,
// validation.ts, handle-request.ts), error answers (error-handler.ts), unrouted paths
// (four-oh-four.ts) and what is left of a body answered before it was read (unread-body.ts).
import { randomUUID } from 'node:crypto';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HandlerOptions } from '../area.js';
import type { TokenTable } from '../auth.js';
import type { Catalogue } from '../catalogue.js';
import type { Clock } from '../clock.js';
import type { Services } from '../services.js';
import type { ApiSpec, OperationSpec } from '../spec.js';
import type { Store } from '../store/db.js';
import type { Sandbox } from '../../sandbox/index.js';
import { oneAtATime, refuseConnect } from './connection.js';
import { BODY_LIMIT, parseBodies } from './content-type-parser.js';
import { installCors } from './cors.js';
import { errorSender, handleErrors, unroutedErrors } from './error-handler.js';
import { answerUnrouted } from './four-oh-four.js';
import { registerOperations, routeUrls } from './route.js';
import { ResponseSerialization } from './serialization.js';
import { registerTrafficControls } from './traffic.js';
import type { TrafficOptions } from './traffic.js';
import { trustedHosts } from './trusted-hosts.js';
import { drainUnreadBodies } from './unread-body.js';
import type { RequestValidation } from './validation.js';

export { BODY_LIMIT };

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
  /** Origins whose pages may call the server from a browser (cors.ts); none by default. */
  corsOrigins?: string[];
  /** Host names served besides IP addresses, localhost and names under .localhost (trusted-hosts.ts). */
  allowedHosts?: string[];
  /** Extra routes of areas (outside the bundle's operations). */
  extraRoutes: ((app: FastifyInstance) => void | Promise<void>)[];
  /** Fault injection and rate limits (off when absent). */
  traffic?: TrafficOptions;
}

// Validators and serializers compile on first use and are kept per bundle, so servers started
// again in one process (tests, restarts) reuse them.
const compiled = new WeakMap<ApiSpec, { validation: RequestValidation; serialization: ResponseSerialization }>();
function compiledFor(spec: ApiSpec) {
  let tools = compiled.get(spec);
  if (!tools) {
    tools = { validation: spec.validation, serialization: new ResponseSerialization(spec.document) };
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
  const sendError = errorSender(errorBody);
  const hosts = trustedHosts(options.allowedHosts ?? [], sendError);

  const app = Fastify({
    logger: { level: options.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // HEAD on every GET path, answered like the GET without its body.
    exposeHeadRoutes: true,
    // Node would answer a request without Host itself, with an empty body: the Host rule answers it.
    http: { requireHostHeader: false },
    rewriteUrl: hosts.rewriteUrl,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    genReqId: () => randomUUID(),
    ...unroutedErrors(errorBody, sendError),
  });

  app.decorateRequest('auth', null);
  app.decorateRequest('checked', null);
  app.decorate('requestsInFlight', () => [...inFlight.values()].map((r) => ({ id: r.id, method: r.method, url: r.url })));
  parseBodies(app);

  // An `Expect` other than 100-continue is ignored (RFC 9110 §10.1.1 allows it), where Node would
  // answer 417 with an empty body.
  app.server.on('checkExpectation', (req, res) => app.server.emit('request', req, res));

  // Hooks on every request take callbacks: an async hook costs a promise per request.
  app.addHook('onRequest', oneAtATime);
  app.addHook('onRequest', (request, reply, done) => {
    // nosniff: every answer is JSON or an object's bytes, never something to guess a type for.
    reply.headers({ 'x-request-id': request.id, 'x-content-type-options': 'nosniff' });
    inFlight.set(request.id, request);
    reply.raw.once('close', () => inFlight.delete(request.id));
    done();
  });
  app.addHook('onRequest', hosts.refuse);
  installCors(app, options.corsOrigins ?? [], sendError);
  drainUnreadBodies(app);
  refuseConnect(app.server, (reason) => errorBody({ errors: [{ reason }] }));

  const routed = new Map<string, OperationSpec>(spec.operations.flatMap((op) => routeUrls(spec.basePath, op).map(({ url }) => [`${op.method} ${url}`, op] as const)));
  registerTrafficControls(app, options.traffic ?? {}, (request) => routed.get(`${request.method} ${request.routeOptions.url}`) ?? null, (token) => tokens.lookup(token) !== undefined);

  handleErrors(app, sendError);
  answerUnrouted(app, spec, sendError);

  app.get('/health', async (_request, reply) => {
    try {
      await store.db.selectFrom('tags').select('label').limit(1).execute();
      return reply.code(200).send({ status: 'ok' });
    } catch (error) {
      return reply.code(503).send({ status: 'unavailable', reason: (error as Error).message });
    }
  });

  await registerOperations(app, { spec, handlers: options.handlers, tokens, validation, serialization, sendError, deps: { store, clock, catalogue, services, sandbox } });

  for (const register of options.extraRoutes) await register(app);

  return app;
}
