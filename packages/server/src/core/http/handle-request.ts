// The handler call on the HTTP server: the area's business rules get their context
// (core/dispatch/context.ts, as in the browser engine); what they return is written by the
// operation's success serializer, with its success status.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerOptions } from '../area.js';
import type { Clock } from '../clock.js';
import { handlerContext } from '../dispatch/context.js';
import type { HandlerDeps } from '../dispatch/context.js';
import { filterOf } from '../filtering/header.js';
import type { OperationSpec } from '../spec.js';
import { pageKey } from '../store/page-cache.js';
import type { Serializer } from './serialization.js';

export type { HandlerDeps } from '../dispatch/context.js';

/** What Fastify writes for a JSON string; a cached answer (bytes) says the same. */
const JSON_UTF8 = 'application/json; charset=utf-8';

/** The handler's context for a request Fastify checked, on `clock` (the server's by default). */
function contextOf(op: OperationSpec, request: FastifyRequest, deps: HandlerDeps, clock?: Clock) {
  return handlerContext(op, {
    checked: request.checked!,
    auth: request.auth,
    request,
    absoluteUrl: (path) => `${request.protocol}://${request.host || `${request.socket.localAddress}:${request.socket.localPort}`}${path}`,
  }, deps, clock);
}

/**
 * The route handler of an operation: its definition's `handle`, answered with the success status
 * and schema; for an operation with `cachedPages`, from the store's page cache when it holds.
 */
export function handleRequest(op: OperationSpec, definition: HandlerOptions<any>, successSerializer: Serializer | null, deps: HandlerDeps) {
  const pages = definition.cachedPages && successSerializer ? deps.store.pages : undefined;
  if (pages) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const key = pageKey(op.operationId, request.url, filterOf(request.checked!.query)?.text, request.auth?.tokenId);
      const body = await pages.answer(key, deps.clock, (clock) => definition.handle(contextOf(op, request, deps, clock)), successSerializer!);
      return reply.code(op.success.status).type(JSON_UTF8).send(body);
    };
  }
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await definition.handle(contextOf(op, request, deps));
    reply.code(op.success.status);
    if (!successSerializer) return reply.send();
    return reply.type('application/json').send(successSerializer(result));
  };
}
