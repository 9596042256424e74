// createClient(): openapi-fetch over the generated `paths`, with the token as a header, retries,
// timeouts and redirects in the fetch it is given, `ApiError` for every answer that is not a valid
// success, and the pagination and upload helpers.
import { FILTER_HEADER, encodeFilterHeader } from '@cloudapi/spec/filter-header';
import { requestMediaTypes, type ImageUploadRequest, type ImageUploadResponse, type paths } from '@cloudapi/types';
import * as openapiFetch from 'openapi-fetch';
import type { HeadersOptions, Middleware } from 'openapi-fetch';
import { ApiError } from './errors.js';
import { throwIfIncomplete } from './pagination-error.js';
import { serializePath } from './paths.js';
import { Planned } from './planned.js';
import { discard, resolveRetry, sendWithRetries, type RetryOptions } from './retry.js';
import type {
  ClientMethod, GetMethod, GetPath, ListArguments, ListItemOf, ListPageOf, ListPathArgument, PaginationOptions, PaginationStop,
} from './types.js';

// openapi-fetch exports createClient only as its default. Its CommonJS file sets `exports.default`,
// which our CommonJS build (Node's interop: the default import is `module.exports`) finds one level down.
const createFetchClient: typeof openapiFetch.default = (openapiFetch.default as unknown as { default?: typeof openapiFetch.default }).default ?? openapiFetch.default;

declare const __CLIENT_VERSION__: string;
/** The version of this package, sent in the default `User-Agent` (set by the build). */
export const VERSION: string = __CLIENT_VERSION__;

/**
 * fetch's own signature: the client calls it with a URL and options, or (once middleware is
 * registered) with a Request and `{ signal }`.
 */
export type Fetch = (input: string | Request, init?: RequestInit) => Promise<Response>;
/** A bearer token, or a function giving one per request (for tokens that are refreshed). */
export type TokenSource = string | undefined | (() => string | undefined | Promise<string | undefined>);
/** The data of an image upload: bytes in memory or a stream (a stream is never retried). */
export type UploadData = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array>;

export interface ClientOptions {
  /** The API's base URL, ending in `/v4`: `https://api.cloud.example/v4`. */
  baseUrl: string;
  /** A personal access token or OAuth token, sent as `Authorization: Bearer …`. Public operations need none. */
  token?: TokenSource;
  /**
   * The fetch to send requests with, for tests, proxies or instrumentation: called as
   * `fetch(request, { signal })`; pass both on. Default: the global `fetch`, looked up at each call.
   */
  fetch?: Fetch;
  /** Retry policy; `false` turns retries off. See `RetryOptions` for the defaults. */
  retry?: RetryOptions | false;
  /** Longest time one attempt may take, response body included; 0 for none. Default 30000. */
  timeoutMs?: number;
  /** The `User-Agent` header. Default `cloudapi-client/<version>`. */
  userAgent?: string;
  /** Headers sent with every API request. */
  headers?: HeadersOptions;
}

export interface UploadOptions {
  /** Aborts the create call or the upload. */
  signal?: AbortSignal;
}

export interface CloudApiClient {
  /** Call a GET operation: `client.GET("/volumes/{volumeId}", { params: { path: { volumeId } } })`. */
  GET: GetMethod;
  /** Call a POST operation: `client.POST("/volumes", { body })`. */
  POST: ClientMethod<'post'>;
  /** Call a PUT operation. */
  PUT: ClientMethod<'put'>;
  /** Call a DELETE operation. */
  DELETE: ClientMethod<'delete'>;
  /**
   * Each page of a list operation, from `page` (default 1) until the last page, an empty page, a
   * page seen before or `maxPages`; returns (and gives `onStop`) why it stopped. Throws `ApiError`.
   */
  pages<P extends GetPath, Count extends number>(path: ListPathArgument<P, Count>, ...init: ListArguments<P, Count>): AsyncGenerator<ListPageOf<P>, PaginationStop, undefined>;
  /**
   * Each item of a list operation, across pages (stopping as `pages` does). Throws `ApiError`, and
   * `PaginationError` after the last item when the walk stopped short (`repeated-page`,
   * `max-pages`) unless `onStop` was given.
   */
  paginate<P extends GetPath, Count extends number>(path: ListPathArgument<P, Count>, ...init: ListArguments<P, Count>): AsyncGenerator<ListItemOf<P>, void, undefined>;
  /**
   * Every item of a list operation, all pages collected. Throws `ApiError`, and `PaginationError`
   * (with the items read) when the walk stopped short (`repeated-page`, `max-pages`) unless
   * `onStop` was given.
   */
  listAll<P extends GetPath, Count extends number>(path: ListPathArgument<P, Count>, ...init: ListArguments<P, Count>): Promise<Array<ListItemOf<P>>>;
  /**
   * Creates a private image (`POST /images/upload`), then PUTs `data` to its `upload_to` URL with
   * `Content-Type: application/octet-stream` (no token: the URL is pre-signed). Resolves with the
   * create call's answer; throws `ApiError` when either step fails.
   */
  uploadImage(body: ImageUploadRequest, data: UploadData, options?: UploadOptions): Promise<ImageUploadResponse>;
  /** Register openapi-fetch middleware. */
  use(...middleware: Middleware[]): void;
  /** Unregister openapi-fetch middleware. */
  eject(...middleware: Middleware[]): void;
}

type AnyInit = { params?: { path?: object; query?: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown>;

/**
 * A multipart body given as a plain object becomes FormData: a Blob (or File, which keeps its
 * name) is a file part, any other value a text field. FormData is passed through as it is.
 */
export function toFormData(body: unknown): FormData {
  if (body instanceof FormData) return body;
  const form = new FormData();
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) if (value != null) form.append(name, value instanceof Blob ? value : String(value));
  return form;
}
type AnyResult = { data?: unknown; error?: unknown; response: Response };
type AnyCall = (url: string, init?: AnyInit) => Promise<AnyResult>;

/**
 * Sends a Planned request as its URL and options, or a Request (made for middleware) as it is, a
 * clone of it while a retry can follow; either with `signal`.
 */
const sender = (custom: Fetch | undefined, signal: AbortSignal | null | undefined) => (request: Request | Planned, final: boolean) =>
  request instanceof Planned ? (custom ?? fetch)(request.url, { ...request, signal }) : (custom ?? fetch)(final ? request : request.clone(), { signal });

export function createClient(options: ClientOptions): CloudApiClient {
  const { baseUrl, token, timeoutMs = 30_000, userAgent = `cloudapi-client/${VERSION}` } = options;
  if (!baseUrl || typeof baseUrl !== 'string') throw new TypeError('baseUrl is required');
  const retry = resolveRetry(options.retry);
  const timed = timeoutMs > 0 && timeoutMs < Infinity;
  const bearer = (value: string | undefined) => (value ? { Authorization: `Bearer ${value}` } : undefined);
  const tokenFunction = typeof token === 'function' ? token : undefined;
  /** Whether middleware was ever registered: from then on openapi-fetch builds real Requests. */
  let hooked = false;

  // A fixed token is one of the client's headers; a token function is asked at each call.
  const base = createFetchClient<paths>({
    baseUrl,
    redirect: 'manual',
    pathSerializer: serializePath,
    headers: openapiFetch.mergeHeaders({ 'User-Agent': userAgent }, options.headers, bearer(tokenFunction ? undefined : token as string | undefined)),
  });

  // Each call gives openapi-fetch its own fetch (a per-request option): retries, redirects, and the
  // call's timeout, one AbortController whose timer is restarted for each attempt and stopped once
  // the body has been read. openapi-fetch reads the body as text; the call decides what it is.
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE'): AnyCall => {
    const send = base[method] as unknown as AnyCall;
    return async (url, { filter, ...init } = {}) => {
      const operation = `${method} ${url}`;
      const callerSignal = init.signal as AbortSignal | null | undefined;
      const custom = (init.fetch as Fetch | undefined) ?? options.fetch;
      let signal = callerSignal;
      let arm: ((on: boolean) => void) | undefined;
      let unlink: (() => void) | undefined;
      if (timed) {
        const controller = new AbortController();
        let handle: ReturnType<typeof setTimeout> | undefined;
        arm = (on) => {
          clearTimeout(handle);
          if (on) handle = setTimeout(() => controller.abort(new DOMException(`${operation} timed out after ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
        };
        // (An already aborted signal stops the call before it sends anything.)
        if (callerSignal) {
          const follow = () => controller.abort(callerSignal.reason);
          callerSignal.addEventListener('abort', follow, { once: true });
          unlink = () => callerSignal.removeEventListener('abort', follow);
        }
        signal = controller.signal;
      }
      const own: AnyInit = {
        ...init,
        // Without `params.path`, openapi-fetch would leave `{name}` in the URL.
        params: { path: {}, ...init.params },
        parseAs: 'text',
        // Middleware needs a real Request; without it a Planned one is cheaper (see planned.ts).
        Request: hooked ? Request : Planned,
        fetch: (request: Request | Planned) => sendWithRetries(request, sender(custom, signal), retry, callerSignal, arm),
      };
      // openapi-fetch only knows media types from the types; the generated map says which
      // operations take multipart bodies, sent as FormData (fetch writes the boundary).
      if (init.body !== undefined && requestMediaTypes[operation] === 'multipart/form-data') own.body = toFormData(init.body);
      if (tokenFunction) own.headers = openapiFetch.mergeHeaders(bearer(await tokenFunction()), init.headers as HeadersOptions);
      // A list's typed `filter` travels as the X-Filter header, encoded as the spec's language says
      // (ASCII only: a header value carries bytes).
      if (filter !== undefined) own.headers = openapiFetch.mergeHeaders(own.headers as HeadersOptions, { [FILTER_HEADER]: encodeFilterHeader(filter) });
      try {
        const { data, error, response } = await send(url, own);
        if (!response.ok) return { error: new ApiError(response, error, operation, response.url || url), response };
        // openapi-fetch read the body as text. Every success of the spec is a JSON object
        // (test/derived.test.ts holds the bundle to it): anything else is an ApiError.
        let cause: unknown;
        try {
          const value: unknown = JSON.parse(data as string);
          if (value && typeof value === 'object' && !Array.isArray(value)) return { data: value, response };
        } catch (failure) {
          cause = failure;
        }
        return { error: new ApiError(response, data, operation, response.url || url, 'not a JSON object', cause), response };
      } finally {
        arm?.(false);
        unlink?.();
      }
    };
  };
  const GET = call('GET');
  const POST = call('POST');

  async function* pages(path: string, init: AnyInit & PaginationOptions & { filter?: unknown } = {}) {
    // `filter` stays in `rest`: every page is asked with it, or the pages would not add up.
    const { maxPages = 10_000, onStop, ...rest } = init;
    let page = Number(rest.params?.query?.page ?? 1);
    let count = 0;
    let reason: PaginationStop['reason'] | '' = '';
    const firsts = new Set<string | undefined>();
    while (count < maxPages) {
      const { data, error, response } = await GET(path, { ...rest, params: { ...rest.params, query: { ...rest.params?.query, page } } });
      if (error) throw error;
      count += 1;
      const body = data as { data: Array<{ id?: unknown } | undefined>; pages?: number };
      if (!Array.isArray(body.data)) throw new ApiError(response, body, `GET ${path}`, undefined, 'not a page of a list');
      // A server that ignores `page` answers the same page again: stop rather than loop.
      const first = JSON.stringify(body.data[0]?.id ?? body.data[0]);
      if (firsts.has(first)) {
        reason = 'repeated-page';
        break;
      }
      firsts.add(first);
      yield body;
      reason = !(page < Number(body.pages)) ? 'last-page' : body.data.length ? '' : 'empty-page';
      if (reason) break;
      page += 1;
    }
    const stop: PaginationStop = { reason: reason || 'max-pages', pages: count };
    onStop?.(stop);
    return stop;
  }

  // Both throw a PaginationError when the walk stopped short (pagination-error.ts); `pages` only
  // returns the reason. `items`, from listAll, collects what was read.
  async function* paginate(path: string, init?: AnyInit & PaginationOptions & { filter?: unknown }, items?: unknown[]) {
    const walk = pages(path, init);
    let count = 0;
    let step;
    try {
      while (!(step = await walk.next()).done) {
        count += step.value.data.length;
        items?.push(...step.value.data);
        yield* step.value.data;
      }
    } finally {
      await walk.return(undefined as never); // the caller broke out: end the page walk too
    }
    throwIfIncomplete(`GET ${path}`, step.value, !!init?.onStop, count, items);
  }

  async function listAll(path: string, init?: AnyInit & PaginationOptions & { filter?: unknown }) {
    const items: unknown[] = [];
    for await (const item of paginate(path, init, items)) void item;
    return items;
  }

  async function uploadImage(body: ImageUploadRequest, data: UploadData, { signal }: UploadOptions = {}) {
    const created = await unwrap(POST('/images/upload', { body, signal })) as ImageUploadResponse;
    const target = created.upload_to;
    const request = new Planned(target, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: data as BodyInit,
      redirect: 'manual',
      duplex: 'half', // required for a stream, allowed for any body
    } as RequestInit);
    // Uploads run as long as they need: no timeout but the caller's signal. Bytes in memory are
    // sent again on a retry; a stream only once.
    const response = await sendWithRetries(request, sender(options.fetch, signal), retry, signal, undefined, data instanceof ReadableStream);
    // The upload host is not the API: its error body is kept as text.
    if (!response.ok) throw new ApiError(response, await response.text(), 'PUT upload_to', target);
    await discard(response);
    return created;
  }

  return {
    GET,
    POST,
    PUT: call('PUT'),
    DELETE: call('DELETE'),
    pages,
    paginate,
    listAll,
    uploadImage,
    use(...middleware: Middleware[]) {
      hooked = true;
      base.use(...middleware);
    },
    eject: base.eject,
  } as unknown as CloudApiClient;
}

/**
 * The data of a call, or its `ApiError` thrown: `const volume = await unwrap(client.GET(...))`.
 */
export async function unwrap<R extends { data?: unknown; error?: unknown }>(result: R | Promise<R>): Promise<Extract<R, { data: unknown }>['data']> {
  const { data, error } = await result;
  if (error !== undefined) throw error;
  return data as Extract<R, { data: unknown }>['data'];
}
