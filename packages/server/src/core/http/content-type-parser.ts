// Request bodies, before any operation sees them: JSON parsed safely (no `__proto__` or
// `constructor` keys, at most 64 levels deep), an empty or blank body taken as no body whatever its
// Content-Type says, any other media type read and left for the operation to refuse by name.
import type { FastifyInstance } from 'fastify';
import { isBlank, parseJson } from '../dispatch/body.js';

export { BODY_LIMIT, MAX_JSON_DEPTH, parseJson } from '../dispatch/body.js';

/**
 * The parsers of operations that take a body. An empty or blank body is no body, whatever its
 * Content-Type says (clients send bodiless actions as forms, as text, as JSON with a charset).
 */
export function parseBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
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
}

/**
 * The parser of operations that take no body: any body is read to its end and dropped unparsed,
 * so that what a client sends there (a form, text, a stray JSON) cannot fail the request.
 */
export function dropBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, payload, done) => {
    payload.on('error', (error) => done(error, undefined));
    payload.on('end', () => done(null, undefined));
    payload.resume();
  });
}
