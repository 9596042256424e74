// The URLs an operation is served at, on the HTTP server (http/route.ts) and in the browser
// engine (router.ts) alike.
import type { OperationSpec } from '../spec.js';

/**
 * The route URLs of an operation: `/v4/volumes/:volumeId`; and where the last path parameter
 * takes values with a slash (image and kernel ids), also the unencoded form `/v4/images/*`, as
 * spec/DECISIONS.md section 9 asks of implementations.
 */
export function routeUrls(basePath: string, op: OperationSpec): { url: string; wildcardParam?: string }[] {
  const url = `${basePath}${op.path.replace(/\{([^}]+)\}/g, ':$1')}`;
  const last = /\{([^}]+)\}$/.exec(op.path)?.[1];
  const slashParam = last && op.parameters.find((p) => p.in === 'path' && p.name === last && p.slashValues);
  if (!slashParam) return [{ url }];
  return [{ url }, { url: `${basePath}${op.path.replace(/\{[^}]+\}$/, '*').replace(/\{([^}]+)\}/g, ':$1')}`, wildcardParam: last }];
}
