// The bundle model without the file system: the base path every target's URL ends with, and each
// operation as the packages need it (method, path, parameters, request bodies, responses,
// security). `@cloudapi/spec/bundle` re-exports it beside reading the bundle file; the reference
// server's browser engine imports it alone, since a browser has no file to read.
import { bodiesOf, deref, operations } from './walk.mjs';

/**
 * `public`: no token; `optional`: a token widens the answer (`{}` among the requirements);
 * `secured`: a token is needed.
 * @typedef {'public' | 'optional' | 'secured'} Access
 */
/**
 * What an operation's `security` (or the document's) asks: its access and, per alternative
 * requirement, the scopes that must all be held (two scopes listed: both); `scopes` is the first
 * alternative that names any (empty when none does).
 * @typedef {{ access: Access, scopeAlternatives: string[][], scopes: string[] }} SecurityView
 */
/**
 * A request body: whether it is required, and each media type with the JSON pointer of its schema.
 * @typedef {{ required: boolean, media: Map<string, string> }} RequestBodyView
 */
/**
 * A declared response: its status (`200`, `4XX`, `default`) and each media type with the JSON
 * pointer of its schema (empty without content).
 * @typedef {{ status: string, media: Map<string, string> }} ResponseView
 */
/**
 * One operation of the bundle as the packages use it.
 * @typedef {object} OperationView
 * @property {string} operationId its operationId (`METHOD path` when it has none)
 * @property {import('./walk.mjs').WalkedOperation['method']} method lower case, as the document writes it
 * @property {string} path the path template relative to the base path (`/volumes/{volumeId}`)
 * @property {string} pointer JSON pointer of the operation object
 * @property {string[]} tags
 * @property {import('./walk.mjs').WalkedParameter[]} parameters resolved, path-level ones merged in
 * @property {RequestBodyView | null} requestBody
 * @property {ResponseView[]} responses in the order the document gives them
 * @property {{ status: number, mediaType: string | null, schemaPointer: string | null }} success the lowest 2xx status (200 when none is declared) and its first media type
 * @property {SecurityView} security
 * @property {string[]} grants `x-account-grants`
 * @property {Record<string, any>} operation the operation object as written
 */

/**
 * The path of the first server URL, without a trailing slash (`/v4`), its variables replaced by
 * their defaults: what every target's base URL ends with. Empty when the document names no server.
 * @param {any} document
 * @returns {string}
 */
export function basePathOf(document) {
  const [server] = document?.servers ?? [];
  if (!server || typeof server.url !== 'string') return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (/** @type {string} */ whole, /** @type {string} */ name) => server.variables?.[name]?.default ?? whole);
  return new URL(url, 'http://placeholder').pathname.replace(/\/+$/, '');
}

/**
 * The security of one operation (its own `security`, else the document's).
 * @param {any} document
 * @param {Record<string, any>} operation
 * @returns {SecurityView}
 */
export function securityOf(document, operation) {
  /** @type {Record<string, string[]>[]} */
  const requirements = operation.security ?? document.security ?? [];
  const access = requirements.length === 0 ? 'public' : requirements.some((r) => Object.keys(r).length === 0) ? 'optional' : 'secured';
  const scopeAlternatives = requirements.filter((r) => Object.keys(r).length > 0).map((r) => [...new Set(Object.values(r).flat())]);
  return { access, scopeAlternatives, scopes: scopeAlternatives.find((list) => list.length) ?? [] };
}

/**
 * Every operation of the document, in document order.
 * @param {any} document
 * @returns {OperationView[]}
 */
export function operationViews(document) {
  return [...operations(document)].map((op) => {
    const operation = op.operation;
    const bodies = bodiesOf(document, op);
    /** @type {RequestBodyView | null} */
    let requestBody = null;
    if (operation.requestBody) {
      const [body] = deref(document, operation.requestBody);
      requestBody = { required: Boolean(body?.required), media: new Map(bodies.filter((b) => b.kind === 'request').map((b) => [b.mediaType, b.schemaPointer])) };
    }
    const responses = Object.keys(operation.responses ?? {}).map((status) => ({
      status,
      media: new Map(bodies.filter((b) => b.kind === 'response' && b.status === status).map((b) => [b.mediaType, b.schemaPointer])),
    }));
    const successStatus = responses.map((r) => r.status).filter((s) => /^2\d\d$/.test(s)).sort()[0] ?? '200';
    const [successBody] = responses.find((r) => r.status === successStatus)?.media ?? [];
    return {
      operationId: operation.operationId ?? `${op.method.toUpperCase()} ${op.path}`,
      method: op.method,
      path: op.path,
      pointer: op.pointer,
      tags: operation.tags ?? [],
      parameters: op.parameters,
      requestBody,
      responses,
      success: { status: Number(successStatus), mediaType: successBody?.[0] ?? null, schemaPointer: successBody?.[1] ?? null },
      security: securityOf(document, operation),
      grants: operation['x-account-grants'] ?? [],
      operation,
    };
  });
}
