// The `X-RateLimit-*` headers ride on every success answer while a rate limit is set (the service
// does so; the reference server's RATE_LIMIT). Rather than repeat the same three `$ref`s in the
// 128 success responses of the path files, the bundle adds them to each 2xx response, taking
// them from the 429 response (components/responses/TooManyRequests.yaml), which declares them
// once. spec/DECISIONS.md, "Rate-limit headers", says why.
import { deref } from './walk.mjs';

export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** Adds the rate-limit headers of the bundle's 429 response to every 2xx response, in place. */
export function addRateLimitHeaders(document) {
  const tooMany = Object.values(document.paths ?? {})
    .flatMap((item) => Object.values(item ?? {}))
    .map((operation) => operation?.responses?.['429'])
    .find(Boolean);
  if (!tooMany) return document;
  const [response] = deref(document, tooMany);
  const headers = Object.fromEntries(RATE_LIMIT_HEADERS.filter((name) => response?.headers?.[name]).map((name) => [name, response.headers[name]]));
  if (!Object.keys(headers).length) return document;
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      for (const [status, raw] of Object.entries(operation?.responses ?? {})) {
        if (!/^2\d\d$/.test(status) || !raw || typeof raw !== 'object') continue;
        const [success] = deref(document, raw);
        if (!success || typeof success !== 'object') continue;
        success.headers = { ...success.headers, ...Object.fromEntries(Object.entries(headers).filter(([name]) => !success.headers?.[name])) };
      }
    }
  }
  return document;
}
