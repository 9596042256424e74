// Reading a request as the API would: the bearer token a secured operation needs (401 without),
// then path, query and body validated against the bundle by the same Ajv request view as the
// reference server (@cloudapi/spec/request-validation), values coerced to their schema types. A
// bad request answers 400 with an ErrorResponse naming each field.
import { RequestValidation } from '@cloudapi/spec/request-validation';
import { bundle } from './bundle.js';
import { errorAnswer } from './errors.js';
import type { ErrorDetail } from './errors.js';
import type { MockOperation } from './operations.js';

let validation: RequestValidation | null = null;
const validator = (op: MockOperation) => (validation ??= new RequestValidation(bundle)).forOperation(op);

export interface ReadRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

function queryOf(url: URL): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length > 1 ? values : values[0];
  }
  return query;
}

const mediaTypeOf = (request: Request) => (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Checks and reads `request` for `op`: a Response to answer at once (401, 400, 415), or the
 * coerced params, query and parsed body.
 */
export async function readRequest(op: MockOperation, request: Request, rawParams: Record<string, string | readonly string[] | undefined>, { validate = true } = {}): Promise<ReadRequest | Response> {
  if (op.secured && !/^Bearer\s+\S+$/i.test(request.headers.get('authorization') ?? '')) {
    return errorAnswer(401, [{ reason: `${op.operationId} needs a token: send Authorization: Bearer <token>` }], { 'www-authenticate': 'Bearer' });
  }
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(rawParams)) params[name] = Array.isArray(value) ? value.join('/') : value;
  const query = queryOf(new URL(request.url));
  let body: unknown;
  const problems: ErrorDetail[] = [];
  const text = op.requestBody ? await request.clone().text() : '';
  const mediaType = mediaTypeOf(request);
  if (op.requestBody && text) {
    if (!op.requestBody.media.has(mediaType)) {
      return errorAnswer(415, [{ reason: `Content-Type ${mediaType || '(none)'} is not accepted: send ${[...op.requestBody.media.keys()].join(' or ')}` }]);
    }
    if (/json/.test(mediaType)) {
      try {
        body = JSON.parse(text);
      } catch (error) {
        return errorAnswer(400, [{ reason: `The request body is not valid JSON: ${(error as Error).message}` }]);
      }
    }
  } else if (op.requestBody?.required) {
    problems.push({ reason: `The request needs a body (${[...op.requestBody.media.keys()].join(' or ')})` });
  }
  if (validate) {
    const check = validator(op);
    problems.push(...check.params(params), ...check.query(query));
    if (body !== undefined) problems.push(...check.body(body, mediaType));
  }
  if (problems.length) return errorAnswer(400, problems);
  return { params, query, body };
}
