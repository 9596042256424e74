// A request in, an answer out, with no HTTP server between: the reference server's stages in the
// order a request meets them on Fastify (route → token → body → checks → handler → serializer,
// any failure an ErrorResponse), each the same function the HTTP layer calls. The browser engine
// (src/engine.ts, behind @cloudapi/msw's stateful mode) answers through this; what only an HTTP
// server has (connections, Host and CORS checks, faults and rate limits, the areas' extra routes)
// stays in core/http.
import type { HandlerOptions } from '../area.js';
import { authenticate } from '../access.js';
import type { TokenTable } from '../access.js';
import { ApiError, badRequest } from '../errors.js';
import type { ErrorDetail } from '../errors.js';
import { allowedMethods } from '../http/four-oh-four.js';
import { ResponseSerialization } from '../http/serialization.js';
import type { Serializer } from '../http/serialization.js';
import type { ApiSpec, OperationSpec } from '../spec.js';
import { keepUpload } from '../uploads.js';
import { BODY_LIMIT, isBlank, parseJson } from './body.js';
import { checkRequest } from './check.js';
import { handlerContext } from './context.js';
import type { HandlerDeps } from './context.js';
import { createRouter } from './router.js';

/** A request as the engine takes it. */
export interface EngineRequest {
  method: string;
  /** The URL as the client called it (absolute), or its path and query. */
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body's bytes or text; absent without a body. */
  body?: Uint8Array | string | null;
}

/** The engine's answer: the status, headers (lower-case names) and body text (null without one). */
export interface EngineAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export interface DispatchOptions {
  spec: ApiSpec;
  handlers: Map<string, HandlerOptions<any>>;
  tokens: Pick<TokenTable, 'lookup'>;
  deps: HandlerDeps;
  /** The origin absolute URLs of answers use when the request's URL is relative. */
  origin: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const mediaTypeOf = (headers: Record<string, string>) => (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

const MULTIPART = 'multipart/form-data';

/**
 * A form, as the server's multipart parser leaves it (areas/support/attachments.ts): each field's
 * value, each file part's name, its bytes kept beside the request (core/uploads.ts).
 */
async function formBody(bytes: Uint8Array, contentType: string, info: object): Promise<Record<string, string>> {
  let form: FormData;
  try {
    form = await new Response(bytes as unknown as ConstructorParameters<typeof Response>[0], { headers: { 'content-type': contentType } }).formData();
  } catch (error) {
    throw badRequest(`The multipart body cannot be read: ${(error as Error).message}`);
  }
  const body: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value === 'string') {
      body[name] = value;
    } else {
      body[name] = value.name;
      keepUpload(info, name, new Uint8Array(await value.arrayBuffer()));
    }
  }
  return body;
}

/** The body as the server's content-type parsers leave it: parsed JSON or form, other bytes, or undefined. */
async function parsedBody(op: OperationSpec, request: EngineRequest, info: object): Promise<unknown> {
  const raw = request.body;
  if (!op.requestBody || raw === undefined || raw === null) return undefined;
  const bytes = typeof raw === 'string' ? new TextEncoder().encode(raw) : raw;
  const mediaType = mediaTypeOf(request.headers);
  // The server reads a form with its own limit (areas/support/attachments.ts), other bodies within BODY_LIMIT.
  if (mediaType === MULTIPART && op.requestBody.media.has(MULTIPART)) return formBody(bytes, request.headers['content-type']!, info);
  if (bytes.length > BODY_LIMIT) throw new ApiError(413, [{ reason: `The request body is larger than ${BODY_LIMIT} bytes` }]);
  if (isBlank(bytes)) return undefined;
  return mediaType === 'application/json' ? parseJson(new TextDecoder().decode(bytes)) : bytes;
}

function queryOf(search: URLSearchParams): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    query[key] = values.length > 1 ? values : values[0];
  }
  return query;
}

/** The dispatcher of a set of areas over one store. */
export function createDispatcher(options: DispatchOptions): (request: EngineRequest) => Promise<EngineAnswer> {
  const { spec, handlers, tokens, deps } = options;
  const serialization = new ResponseSerialization(spec.document);
  const errorBody = serialization.forPointer('#/components/schemas/ErrorResponse');
  const route = createRouter(spec.basePath, spec.operations);
  const allowedOn = allowedMethods(spec);
  const successSerializers = new Map<string, Serializer | null>();
  const successOf = (op: OperationSpec) => {
    if (!successSerializers.has(op.operationId)) successSerializers.set(op.operationId, op.success.schemaPointer ? serialization.forPointer(op.success.schemaPointer) : null);
    return successSerializers.get(op.operationId) ?? null;
  };
  const error = (status: number, errors: ErrorDetail[], headers: Record<string, string> = {}): EngineAnswer =>
    ({ status, headers: { ...headers, 'content-type': JSON_TYPE }, body: errorBody({ errors }) });

  const unrouted = (method: string, path: string): EngineAnswer => {
    const allowed = allowedOn(path);
    if (method === 'OPTIONS' && allowed.length) return { status: 204, headers: { allow: allowed.join(', ') }, body: null };
    if (allowed.length && !allowed.includes(method)) {
      const allow = allowed.join(', ');
      return error(405, [{ reason: `${method} is not allowed on this path; allowed: ${allow}` }], { allow });
    }
    return error(404, [{ reason: method === 'OPTIONS' ? `No operation at ${path}` : `No operation at ${method} ${path}` }]);
  };

  async function answer(request: EngineRequest, url: URL): Promise<EngineAnswer> {
    const method = request.method.toUpperCase();
    const routed = route(method, url.pathname);
    if (!routed) return unrouted(method, url.pathname);
    const { op } = routed;
    const definition = handlers.get(op.operationId);
    if (!definition) return error(501, [{ reason: `${op.operationId} (${op.method} ${op.path}) is not implemented by this server: no area serving it was started` }]);
    const auth = authenticate(op, request.headers.authorization, tokens as TokenTable, new Set(definition.conditionalGrants ?? []));
    const info = { ip: '127.0.0.1', headers: request.headers };
    const received = { params: routed.params, query: queryOf(url.searchParams), headers: request.headers, body: await parsedBody(op, request, info) };
    const checked = checkRequest(op, received, { spec, validation: spec.validation, db: deps.store.db, keepNull: new Set(definition.keepNull ?? []) });
    const result = await definition.handle(handlerContext(op, {
      checked,
      auth,
      request: info,
      absoluteUrl: (path) => `${url.origin}${path}`,
    }, deps));
    const success = successOf(op);
    const body = success && method !== 'HEAD' ? success(result) : null;
    return { status: op.success.status, headers: success ? { 'content-type': JSON_TYPE } : {}, body };
  }

  return async (request) => {
    const url = new URL(request.url, options.origin);
    try {
      return await answer(request, url);
    } catch (failure) {
      if (failure instanceof ApiError) return error(failure.status, failure.errors, failure.headers);
      return error(500, [{ reason: `Internal server error: ${(failure as Error).message}` }]);
    }
  };
}
