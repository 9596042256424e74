// The Host rule and the request-target check shared with the docs and the mock
// (@cloudapi/spec/trust): a request whose Host is not an IP address, localhost, a name under
// .localhost or a name of ALLOWED_HOSTS is refused (403; a page re-pointed at this server by DNS
// rebinding sends its own name), as is one without exactly one Host (400, HTTP/1.0 included) and
// a target that is no path (400: `*`, an absolute URL naming another host). An absolute URL that
// names this Host is served as its path (RFC 9112 §3.2.2).
//
// The verdict is taken in Fastify's `rewriteUrl`, before routing (so an absolute-form target is
// routed by its path), and a refusal is answered by the first onRequest hook, so it carries the
// request id and is answered in its turn on a pipelined connection.
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHostRule } from '@cloudapi/spec/trust';
import type { HostVerdict } from '@cloudapi/spec/trust';
import type { SendError } from './error-handler.js';

type Refusal = Extract<HostVerdict, { ok: false }>;

export function trustedHosts(allowedHosts: readonly string[], sendError: SendError) {
  const rule = createHostRule(allowedHosts);
  const refused = new WeakMap<IncomingMessage, Refusal>();
  return {
    /** Fastify's `rewriteUrl`: the target to route, the request's verdict kept for `refuse`. */
    rewriteUrl(raw: IncomingMessage): string {
      const verdict = rule.check(raw);
      if (verdict.ok) return verdict.target;
      refused.set(raw, verdict);
      return '/'; // routed nowhere in particular: the hook below answers it
    },
    /** onRequest hook: answers a refused request with its reason. */
    refuse(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
      const verdict = refused.get(request.raw);
      if (!verdict) return done();
      request.log.info({ host: request.headers.host, status: verdict.status }, 'refused by the Host rule');
      sendError(reply, verdict.status, [{ reason: verdict.reason }]);
    },
  };
}
