// The checks every request meets before its handler, whatever carried it (the HTTP server's
// preValidation hook, http/validation.ts, or the browser engine, engine.ts): path, query, the
// list's X-Filter and the body against the operation's request view (the shared implementation in
// @cloudapi/spec, so a bad field is named the same way everywhere), then the values no schema
// bounds but the store cannot hold. All problems of a request are one 400.
import type { Kysely } from 'kysely';
import type { RequestValidation } from '@cloudapi/spec/request-validation';
import { ApiError, badRequest } from '../errors.js';
import type { ErrorDetail } from '../errors.js';
import { readFilterHeader } from '../filtering/header.js';
import type { ApiSpec, OperationSpec } from '../spec.js';
import { MAX_JSON_DEPTH } from './body.js';

const INT32_MAX = 2 ** 31 - 1;

/** What a request asks, as validated: the handler's `ctx.params`, `ctx.query` and `ctx.body`. */
export interface CheckedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/** A request as received, whatever carried it: path parameters and query as strings, the body parsed. */
export interface ReceivedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the bytes of another media type, or undefined without a body. */
  body: unknown;
}

export interface CheckDeps {
  spec: ApiSpec;
  validation: RequestValidation;
  db: Kysely<any>;
  /** Top-level body fields where null is a value (the handler's keepNull). */
  keepNull: ReadonlySet<string>;
}

/**
 * Values no schema bounds but the store cannot hold: integers beyond 32 bits (ids and sizes are
 * 32-bit columns on PostgreSQL) and strings with NUL characters (PostgreSQL text refuses them).
 */
function storableProblems(value: unknown, path: string[], out: ErrorDetail[], depth = 0): void {
  if (out.length >= 20 || depth > MAX_JSON_DEPTH) return;
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) > INT32_MAX) out.push({ field: path.join('.'), reason: `${path.join('.')} must be between -${INT32_MAX} and ${INT32_MAX}` });
  } else if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push({ field: path.join('.'), reason: `${path.join('.')} must not contain NUL characters` });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => storableProblems(item, [...path, String(i)], out, depth + 1));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) storableProblems(item, [...path, key], out, depth + 1);
  }
}

function mediaTypeOf(request: ReceivedRequest): string {
  return String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The checked request, or the ApiError (400) listing its problems. */
export function checkRequest(op: OperationSpec, request: ReceivedRequest, deps: CheckDeps): CheckedRequest {
  const v = deps.validation.forOperation(op);
  const params = request.params;
  const query = { ...request.query };
  const problems = [...v.params(params), ...v.query(query)];
  readFilterHeader(deps.spec.document, op.operationId, request, query, deps.db, problems);
  let body: unknown = request.body;
  const mediaType = op.requestBody && body !== undefined ? mediaTypeOf(request) : '';
  if (!op.requestBody) {
    body = undefined;
  } else if (body === undefined) {
    if (op.requestBody.required) problems.push({ reason: `The request needs a body (${[...op.requestBody.media.keys()].join(' or ')})` });
  } else if (!op.requestBody.media.has(mediaType)) {
    // 400, not 415: every operation that takes a body declares 400 and none 415 (DECISIONS).
    throw badRequest(`The request body is sent as ${mediaType || '(no Content-Type)'}, which this operation does not take: send ${[...op.requestBody.media.keys()].join(' or ')}`);
  } else {
    problems.push(...v.body(body, mediaType));
    // null means "not set" for optional fields: drop it and check the body without it.
    if (!problems.length && body && typeof body === 'object' && !Array.isArray(body)) {
      const entries = Object.entries(body);
      if (entries.some(([key, value]) => value === null && !deps.keepNull.has(key))) {
        body = Object.fromEntries(entries.filter(([key, value]) => value !== null || deps.keepNull.has(key)));
        problems.push(...v.body(body, mediaType));
      }
    }
  }
  if (!problems.length) {
    storableProblems(params, [], problems);
    storableProblems(query, [], problems);
    storableProblems(body, [], problems);
  }
  if (problems.length) throw new ApiError(400, problems);
  return { params, query, body };
}
