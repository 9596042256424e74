// Request validation from the bundle, in each route's preValidation hook: the checks of
// core/dispatch/check.ts (path, query, X-Filter, body, storable values), which the browser engine
// runs too. All problems of a request answer one 400; the handler gets the checked values as
// `request.checked`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkRequest } from '../dispatch/check.js';
import type { CheckDeps, CheckedRequest } from '../dispatch/check.js';
import type { OperationSpec } from '../spec.js';

export { RequestValidation, describeErrors } from '@cloudapi/spec/request-validation';
export type { OperationValidator } from '@cloudapi/spec/request-validation';
export type { CheckedRequest } from '../dispatch/check.js';

declare module 'fastify' {
  interface FastifyRequest {
    checked: CheckedRequest | null;
  }
}

/** The preValidation hook of an operation's route (a callback: an async hook costs a promise per request). */
export function validateRequest(op: OperationSpec, deps: CheckDeps) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    try {
      request.checked = checkRequest(op, request as FastifyRequest & { params: Record<string, unknown>; query: Record<string, unknown> }, deps);
      done();
    } catch (error) {
      done(error as Error);
    }
  };
}
