// The handler call on the HTTP server: the area's business rules get their context
// (core/dispatch/context.ts, as in the browser engine); what they return is written by the
// operation's success serializer, with its success status.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerOptions } from '../area.js';
import { handlerContext } from '../dispatch/context.js';
import type { HandlerDeps } from '../dispatch/context.js';
import type { OperationSpec } from '../spec.js';
import type { Serializer } from './serialization.js';

export type { HandlerDeps } from '../dispatch/context.js';

/** The route handler of an operation: its definition's `handle`, answered with the success status and schema. */
export function handleRequest(op: OperationSpec, definition: HandlerOptions<any>, successSerializer: Serializer | null, deps: HandlerDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await definition.handle(handlerContext(op, {
      checked: request.checked!,
      auth: request.auth,
      request,
      absoluteUrl: (path) => `${request.protocol}://${request.host || `${request.socket.localAddress}:${request.socket.localPort}`}${path}`,
    }, deps));
    reply.code(op.success.status);
    if (!successSerializer) return reply.send();
    return reply.type('application/json').send(successSerializer(result));
  };
}
