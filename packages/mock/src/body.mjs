// Request bodies as the front layer takes them: read up to a cap (the rest is drained, not kept,
// so the client still reads the 413), and for JSON media types checked for syntax and nesting
// before Prism sees them (Prism answers a 500 for deep nesting and its own body for bad JSON).

/** The largest request body the mock reads unless told otherwise. */
export const DEFAULT_MAX_BODY = 1024 * 1024;

/** Reads a size such as `1048576`, `512KiB`, `1MiB` or `2MB` as bytes; throws on anything else. */
export function parseSize(text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?\s*$/i.exec(String(text));
  if (!match) throw new Error(`"${text}" is not a size: write bytes (1048576) or a number with KiB, MiB, KB or MB (1MiB).`);
  const unit = (match[2] || 'b').toLowerCase();
  const factor = { b: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2, gb: 1e9, gib: 1024 ** 3 }[unit];
  const bytes = Math.floor(Number(match[1]) * factor);
  if (bytes < 1) throw new Error(`"${text}" is not a usable size: it must be at least one byte.`);
  return bytes;
}

/** Whether a Content-Type names JSON (`application/json`, `application/merge-patch+json`...). */
export function isJsonType(contentType) {
  const type = String(contentType || '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[^/]+\+json$/.test(type);
}

/** A body the front layer will not read further than: past this, the connection is closed. */
const DRAIN_LIMIT = 64 * 1024 ** 2;

/**
 * Reads the body of `req`. Resolves `{body}` (a Buffer), or `{tooLarge: true}` once more than
 * `maxBytes` arrived (the rest is drained up to a limit, then the connection is dropped), or
 * `{aborted: true}` when the client went away.
 */
export function readBody(req, maxBytes) {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    const chunks = [];
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > maxBytes;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      else if (size > DRAIN_LIMIT) { resolve({ tooLarge: true, drop: true }); req.pause(); }
    });
    req.on('end', () => resolve(tooLarge ? { tooLarge: true } : { body: Buffer.concat(chunks, size) }));
    req.on('error', () => resolve({ aborted: true }));
    req.on('aborted', () => resolve({ aborted: true }));
  });
}

/**
 * The nesting depth of a JSON text, counted without parsing it (no recursion, so a body nested
 * 10,000 levels deep costs no stack), stopping as soon as it exceeds `limit`.
 * @returns {number} the depth, or `limit + 1` when it goes past the limit.
 */
export function jsonDepth(buffer, limit) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < buffer.length; i++) {
    const c = buffer[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) { // { [
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return limit + 1;
      }
    } else if (c === 0x7d || c === 0x5d) { // } ]
      depth--;
    }
  }
  return deepest;
}

/**
 * A JSON body checked before Prism sees it: `{value}` when it parses, or `{problem}` saying why it
 * cannot be passed on: nested deeper than `maxDepth`, or not JSON at all (with the parser's own
 * words for where). An empty body is `{value: null}`.
 */
export function jsonProblem(buffer, maxDepth) {
  if (buffer.length === 0) return { value: null };
  if (jsonDepth(buffer, maxDepth) > maxDepth) return { problem: `The body nests objects and arrays more than ${maxDepth} levels deep.` };
  try {
    return { value: JSON.parse(buffer.toString('utf8')) };
  } catch (error) {
    return { problem: `The body is not valid JSON: ${error.message.replace(/\.$/, '')}.` };
  }
}
