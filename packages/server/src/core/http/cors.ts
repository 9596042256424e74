// Which web pages may call the server from a browser (CORS): the documentation site's own origin
// (`npm start` serves it on 8080 by default) and those added with `corsOrigins` (the bin's
// `--cors-origin`, `CORS_ORIGINS`). A trusted origin gets the CORS headers on every answer and
// its preflights answered 204; a preflight from any other origin is refused with a 403
// ErrorResponse that says how to trust it. One onRequest hook: it runs for unknown paths too.
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The docs' origins when nothing else is said. */
export const DEFAULT_CORS_ORIGINS = ['http://127.0.0.1:8080', 'http://localhost:8080'];

/** Checks each origin is `scheme://host[:port]` (or `*`, any); throws naming the bad one. */
export function normalizeCorsOrigins(origins: string[]): string[] {
  return origins.map((raw) => {
    const origin = raw.trim().replace(/\/$/, '');
    if (origin === '*') return origin;
    let url: URL | null = null;
    try { url = new URL(origin); } catch { /* reported below */ }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin) {
      throw new Error(`CORS origin "${raw}" must be a scheme, host and port only, such as http://127.0.0.1:8080 (or * for any)`);
    }
    return origin;
  });
}

export function installCors(
  app: FastifyInstance,
  extraOrigins: string[],
  sendError: (reply: FastifyReply, status: number, errors: { reason: string }[], headers?: Record<string, string>) => void,
): void {
  const trusted = new Set(normalizeCorsOrigins([...DEFAULT_CORS_ORIGINS, ...extraOrigins]));
  const trusts = (origin: string | undefined): origin is string => Boolean(origin) && (trusted.has('*') || trusted.has(origin!));
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    const preflight = request.method === 'OPTIONS' && origin !== undefined && request.headers['access-control-request-method'] !== undefined;
    if (!trusts(origin)) {
      if (!preflight) return done();
      reply.header('vary', 'origin');
      return sendError(reply, 403, [{ reason: `The origin ${origin} is not trusted for cross-origin calls: add it with --cors-origin or CORS_ORIGINS` }]);
    }
    reply.headers({ 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', 'access-control-expose-headers': '*', vary: 'origin' });
    if (!preflight) return done();
    reply.code(204).headers({
      'access-control-allow-methods': 'GET, POST, PUT, DELETE, PATCH, HEAD',
      'access-control-allow-headers': String(request.headers['access-control-request-headers'] ?? 'authorization, content-type'),
      'access-control-max-age': '600',
    }).send();
  });
}
