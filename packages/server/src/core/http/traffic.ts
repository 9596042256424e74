// Traffic controls in front of the operations: fault injection (FAULTS / --faults, the shared
// decision module of @cloudapi/spec/faults) and rate limits (RATE_LIMIT). Both are off by default
// and run in one onRequest hook, before authentication: an injected fault stands for the network
// or a proxy in front of the service, so it is decided first and uses none of the caller's limit.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createFaultInjector, describeFault, droppedAnswer, faultBody, faultHeaders, FAULT_HEADER } from '@cloudapi/spec/faults';
import type { parseFaults } from '@cloudapi/spec/faults';
import { bearerToken } from '../auth.js';
import type { OperationSpec } from '../spec.js';
import { createRateLimiter } from './rate-limit.js';
import type { RateLimitSetting } from './rate-limit.js';

export interface TrafficOptions {
  /** A parsed FAULTS setting (parseFaults), or null for none. */
  faults?: ReturnType<typeof parseFaults>;
  rateLimit?: RateLimitSetting | null;
}

/** Whether the server knows a bearer token (the rate limit keys only known tokens by token). */
export type KnownToken = (token: string) => boolean;

type Decision = NonNullable<ReturnType<ReturnType<typeof createFaultInjector>['decide']>>;

/** Answers a chosen fault: 429 or 503 with an ErrorResponse, or headers then a cut connection. */
function injectFault(reply: FastifyReply, decision: Decision): void {
  if (decision.fault === 'drop') {
    reply.hijack();
    const raw = reply.raw;
    const { status, headers, partialBody } = droppedAnswer(decision);
    raw.writeHead(status, headers);
    raw.write(partialBody);
    // The socket is destroyed once the partial body has left, so the client sees it cut mid-answer.
    raw.socket?.end(() => raw.socket?.destroy());
    setImmediate(() => raw.destroy());
    return;
  }
  reply.code(Number(decision.fault)).headers(faultHeaders(decision)).type('application/json').send(JSON.stringify(faultBody(decision)));
}

/**
 * Adds the traffic controls to `app`. `operationOf` finds the operation a routed request
 * addresses (null for routes outside the bundle's operations, such as /health); `known` says
 * whether a token is one of the server's.
 */
export function registerTrafficControls(app: FastifyInstance, options: TrafficOptions, operationOf: (request: FastifyRequest) => OperationSpec | null, known: KnownToken): void {
  const faults = options.faults ? createFaultInjector(options.faults) : null;
  const limiter = options.rateLimit ? createRateLimiter(options.rateLimit) : null;
  if (!faults && !limiter) return;
  app.addHook('onRequest', (request, reply, done) => {
    const op = operationOf(request);
    if (!op) return done();
    let decision: Decision | null = null;
    try {
      decision = faults?.decide({ operationId: op.operationId, header: request.headers[FAULT_HEADER] }) ?? null;
    } catch (error) {
      return done(Object.assign(new Error((error as Error).message), { statusCode: 400 }));
    }
    const proceed = () => {
      if (decision?.fault) return injectFault(reply, decision);
      if (decision) reply.header(FAULT_HEADER, faultHeaders(decision)[FAULT_HEADER]);
      if (limiter) {
        const bearer = op.access === 'public' ? null : bearerToken(request.headers.authorization);
        const token = bearer && 'token' in bearer && known(bearer.token) ? bearer.token : null;
        const key = limiter.keyOf(token, request.ip);
        const verdict = limiter.take(key);
        reply.headers(verdict.headers);
        if (!verdict.allowed) {
          request.log.info({ operationId: op.operationId, key: key.split(' ')[0] }, 'rate limit reached');
          reply.code(429).type('application/json').send(JSON.stringify({ errors: [{ reason: `Too many requests: the limit is ${limiter.setting.limit} per ${limiter.setting.windowSeconds} s; retry after ${verdict.headers['retry-after']} s` }] }));
          return;
        }
      }
      done();
    };
    if (decision) request.log.warn({ operationId: op.operationId, fault: decision.kinds }, describeFault(decision, { operationId: op.operationId, method: request.method, url: request.url }));
    if (decision?.delayMs) setTimeout(proceed, decision.delayMs);
    else proceed();
  });
}
