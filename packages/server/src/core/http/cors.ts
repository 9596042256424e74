// Which web pages may call the server from a browser (CORS): the policy shared with the mock
// (@cloudapi/spec/trust). Only the origins given with `corsOrigins` (the bin's `--cors-origin`,
// `CORS_ORIGINS`; `npm start` adds its docs' origin) are trusted, with their loopback twins, and
// never with credentials. A trusted origin gets the CORS headers on every answer and its
// preflights answered 204 (Private Network Access included); a preflight from any other origin is
// refused with a 403 ErrorResponse that says how to trust it. The browser hides that refusal from
// the page, so it is logged (warn, once per origin). One onRequest hook: it runs for unknown paths too.
import type { FastifyInstance } from 'fastify';
import { createCorsPolicy, firstSightings } from '@cloudapi/spec/trust';
import type { SendError } from './error-handler.js';

export function installCors(app: FastifyInstance, origins: readonly string[], sendError: SendError): void {
  const policy = createCorsPolicy(origins);
  const told = firstSightings();
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    reply.headers(policy.headers(origin));
    if (origin !== undefined && !policy.trusts(origin) && told.first(origin)) {
      request.log.warn({ origin, method: request.method, url: request.url.slice(0, 200) }, `CORS: ${policy.refusal(origin)} The browser shows the page no answer.`);
    }
    const preflight = policy.preflight(request);
    if (!preflight) return done();
    if (preflight.reason) return sendError(reply, preflight.status, [{ reason: preflight.reason }], preflight.headers);
    reply.code(preflight.status).headers(preflight.headers).send();
  });
}
