// Which web pages may call the mock from a browser (CORS). Only trusted origins get the CORS
// headers: the documentation site's own (`npm start` serves it on 8080 by default) and those the
// caller adds (`corsOrigins`, the bin's `--cors-origin` and `CORS_ORIGINS`). A preflight from any
// other origin is refused with a 403 ErrorResponse that says how to trust it; a simple request
// from it is answered without CORS headers, so the browser keeps the answer from the page.

/** The docs' origins when nothing else is said (`npm start` with the default DOCS_PORT). */
export const DEFAULT_CORS_ORIGINS = ['http://127.0.0.1:8080', 'http://localhost:8080'];

/** `CORS_ORIGINS` (comma- or space-separated) as a list; `*` trusts every origin. */
export function corsOriginsFromEnv(value) {
  return String(value ?? '').split(/[\s,]+/).filter(Boolean);
}

/** Checks each origin is `scheme://host[:port]` (or `*`); throws naming the bad one. */
export function checkCorsOrigins(origins) {
  for (const origin of origins) {
    if (origin === '*') continue;
    let url;
    try { url = new URL(origin); } catch { url = null; }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/$/, '')) {
      throw new Error(`CORS origin "${origin}" must be a scheme, host and port only, such as http://127.0.0.1:8080 (or * for any).`);
    }
  }
  return origins.map((origin) => origin.replace(/\/$/, ''));
}

/**
 * @param {string[]} [origins] trusted origins besides DEFAULT_CORS_ORIGINS
 * @returns {{ headers: (req) => Record<string, string>, preflight: (req) => { status: number, headers: Record<string, string>, reason?: string } | null }}
 */
export function createCorsPolicy(origins = []) {
  const trusted = new Set(checkCorsOrigins([...DEFAULT_CORS_ORIGINS, ...origins]));
  const trusts = (origin) => Boolean(origin) && (trusted.has('*') || trusted.has(origin));
  const headers = (req) => (trusts(req.headers.origin)
    ? {
      'access-control-allow-origin': req.headers.origin,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': '*',
      vary: 'origin',
    }
    : {});
  return {
    headers,
    /** The answer to a CORS preflight, or null when the request is not one. */
    preflight(req) {
      const origin = req.headers.origin;
      if (req.method !== 'OPTIONS' || !origin || !req.headers['access-control-request-method']) return null;
      if (!trusts(origin)) {
        return { status: 403, headers: { vary: 'origin' }, reason: `The origin ${origin} is not trusted for cross-origin calls: add it with --cors-origin or CORS_ORIGINS.` };
      }
      return {
        status: 204,
        headers: {
          ...headers(req),
          'access-control-allow-methods': 'GET, POST, PUT, DELETE, PATCH, HEAD',
          'access-control-allow-headers': req.headers['access-control-request-headers'] || 'authorization, content-type',
          'access-control-max-age': '600',
        },
      };
    },
  };
}
