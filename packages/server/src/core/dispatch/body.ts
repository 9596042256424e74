// Request bodies as every request meets them, on the server (http/content-type-parser.ts) and
// in the browser engine: JSON parsed safely (no `__proto__` or `constructor` keys, at most 64
// levels deep), an empty or blank body taken as no body whatever its Content-Type says.
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
export function isBlank(body: string | Uint8Array): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = typeof body === 'string' ? body.charCodeAt(i) : body[i]!;
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}
