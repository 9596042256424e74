// Who asks, in each route's onRequest hook (before the body is read): the bearer token against
// the operation's security, scopes and account grants (core/auth.ts), kept as `request.auth`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../access.js';
import type { AuthContext, TokenTable } from '../auth.js';
import { unauthorized } from '../errors.js';
import type { OperationSpec } from '../spec.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

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

/** The onRequest hook of an operation's route (`conditionalGrants`: grants its handler checks itself). */
export function authenticateRequest(op: OperationSpec, tokens: TokenTable, conditionalGrants: ReadonlySet<string>) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    try {
      request.auth = authenticate(op, authorizationHeader(op, request), tokens, conditionalGrants);
      done();
    } catch (error) {
      done(error as Error);
    }
  };
}
