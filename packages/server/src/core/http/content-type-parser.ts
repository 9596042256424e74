// Request bodies, before any operation sees them: JSON parsed safely (no `__proto__` or
// `constructor` keys, at most 64 levels deep), an empty or blank body taken as no body whatever its
// Content-Type says, any other media type read and left for the operation to refuse by name.
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { badRequest } from '../errors.js';

export const BODY_LIMIT = 1024 * 1024; // 1 MiB; larger JSON bodies answer 413
export const MAX_JSON_DEPTH = 64;

/** A JSON body: rejects `__proto__` keys and nesting deeper than 64 levels with a 400. */
export function parseJson(text: string): unknown {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > MAX_JSON_DEPTH) throw badRequest(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    } else if (c === 125 || c === 93) depth--;
  }
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw badRequest(`The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Empty, or only white space: a body that says nothing. */
function isBlank(body: string | Buffer): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = typeof body === 'string' ? body.charCodeAt(i) : body[i]!;
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}

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
