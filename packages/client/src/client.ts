// createClient(): openapi-fetch over the generated `paths`, with the token as a bearer header
// (middleware), retries and timeouts in the fetch it is given, `ApiError` for failures, and the
// pagination and upload helpers.
import { requestMediaTypes, type ImageUploadRequest, type ImageUploadResponse, type paths } from '@cloudapi/types';
import * as openapiFetch from 'openapi-fetch';
import type { HeadersOptions, Middleware } from 'openapi-fetch';
import { ApiError } from './errors.js';
import { resolveRetry, sendWithRetries, type AttemptTimer, type RetryOptions } from './retry.js';
import type { ClientMethod, ListInitParam, ListItem, ListPage, ListPath } from './types.js';

// openapi-fetch exports createClient only as its default. Its CommonJS file sets `exports.default`,
// which our CommonJS build (Node's interop: the default import is `module.exports`) finds one level down.
const createFetchClient: typeof openapiFetch.default = (openapiFetch.default as unknown as { default?: typeof openapiFetch.default }).default ?? openapiFetch.default;

declare const __CLIENT_VERSION__: string;
/** The version of this package, sent in the default `User-Agent`. */
export const VERSION: string = typeof __CLIENT_VERSION__ === 'string' ? __CLIENT_VERSION__ : '0.0.0-dev';

export type Fetch = (input: Request) => Promise<Response>;
/** A bearer token, or a function giving one per request (for tokens that are refreshed). */
export type TokenSource = string | undefined | (() => string | undefined | Promise<string | undefined>);
/** The data of an image upload: bytes in memory or a stream (a stream is never retried). */
export type UploadData = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array>;

export interface ClientOptions {
  /** The API's base URL, ending in `/v4`: `https://api.cloud.example/v4`. */
  baseUrl: string;
  /** A personal access token or OAuth token, sent as `Authorization: Bearer …`. Public operations need none. */
  token?: TokenSource;
  /** The fetch to send requests with. Default `globalThis.fetch`, looked up at each call. */
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
  GET: ClientMethod<'get'>;
  /** Call a POST operation: `client.POST("/volumes", { body })`. */
  POST: ClientMethod<'post'>;
  /** Call a PUT operation. */
  PUT: ClientMethod<'put'>;
  /** Call a DELETE operation. */
  DELETE: ClientMethod<'delete'>;
  /** Each page of a list operation, from `page` (default 1) to the last; throws `ApiError`. */
  pages<P extends ListPath>(path: P, ...init: ListInitParam<P>): AsyncGenerator<ListPage<P>, void, undefined>;
  /** Each item of a list operation, across pages; throws `ApiError`. */
  paginate<P extends ListPath>(path: P, ...init: ListInitParam<P>): AsyncGenerator<ListItem<P>, void, undefined>;
  /** Every item of a list operation, all pages collected; throws `ApiError`. */
  listAll<P extends ListPath>(path: P, ...init: ListInitParam<P>): Promise<ListItem<P>[]>;
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

type AnyInit = { params?: { query?: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown>;

/**
 * A multipart body given as a plain object becomes FormData: a Blob (or File) is a file part, any
 * other value a text field (arrays give one field per item). FormData is passed through as it is.
 */
export function toFormData(body: unknown): FormData {
  if (body instanceof FormData) return body;
  const form = new FormData();
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (item instanceof Blob) form.append(name, item, (item as { name?: string }).name || name);
      else form.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  return form;
}
type AnyCall = (url: string, init?: AnyInit) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

export function createClient(options: ClientOptions): CloudApiClient {
  const { baseUrl, token, timeoutMs = 30_000, userAgent = `cloudapi-client/${VERSION}` } = options;
  if (typeof baseUrl !== 'string' || baseUrl === '') throw new TypeError('createClient: `baseUrl` is required, e.g. "https://api.cloud.example/v4".');
  const retry = resolveRetry(options.retry);
  const fetchOf = (): Fetch => options.fetch ?? ((request) => globalThis.fetch(request));

  const timed = timeoutMs > 0 && Number.isFinite(timeoutMs);

  const base = createFetchClient<paths>({ baseUrl, headers: openapiFetch.mergeHeaders({ 'User-Agent': userAgent }, options.headers) });
  base.use({
    async onRequest({ request }) {
      const value = typeof token === 'function' ? await token() : token;
      if (value) request.headers.set('Authorization', `Bearer ${value}`);
      return request;
    },
  });

  // Each call gets its own fetch (openapi-fetch's per-request option), holding the call's timeout:
  // one AbortController in the Request's signal, its timer restarted for each attempt and stopped
  // once openapi-fetch has read the body. A body-less request is sent again as it is; one with a
  // body is cloned for every attempt that may be retried.
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE'): AnyCall => {
    const send = base[method] as unknown as AnyCall;
    return async (url, init = {}) => {
      const signal = (init.signal as AbortSignal | null | undefined) ?? undefined;
      const fetchImpl = (init.fetch as Fetch | undefined) ?? fetchOf();
      let controller: AbortController | undefined;
      let timer: AttemptTimer | undefined;
      let unlink: (() => void) | undefined;
      if (timed) {
        const own = (controller = new AbortController());
        let handle: ReturnType<typeof setTimeout> | undefined;
        timer = {
          start() {
            clearTimeout(handle);
            handle = setTimeout(() => own.abort(new DOMException(`${method} ${url} timed out after ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
          },
          stop: () => clearTimeout(handle),
        };
        if (signal) {
          const follow = () => own.abort(signal.reason);
          if (signal.aborted) follow();
          signal.addEventListener('abort', follow, { once: true });
          unlink = () => signal.removeEventListener('abort', follow);
        }
      }
      const fetchWithRetries: Fetch = (request) => sendWithRetries(
        (final) => fetchImpl(final || request.body === null ? request : request.clone()),
        { method, url: request.url, signal, retry, replayable: true, timer },
      );
      // openapi-fetch only knows media types from the types; the generated map says which
      // operations take multipart bodies, which are sent as FormData (fetch sets the boundary).
      const multipart = requestMediaTypes[`${method} ${url}`] === 'multipart/form-data' && init.body !== undefined;
      const body = multipart ? { body: toFormData(init.body) } : {};
      try {
        const result = await send(url, { ...init, ...body, signal: controller?.signal ?? signal, fetch: fetchWithRetries });
        if (result.response.ok) return result;
        return { error: new ApiError(result.response, result.error, method, result.response.url || url), response: result.response };
      } finally {
        timer?.stop();
        unlink?.();
      }
    };
  };
  const GET = call('GET');
  const POST = call('POST');

  async function* pages(path: string, init: AnyInit = {}) {
    let page = Number(init.params?.query?.page ?? 1);
    for (;;) {
      const { data, error } = await GET(path, { ...init, params: { ...init.params, query: { ...init.params?.query, page } } });
      if (error) throw error;
      const body = data as { data?: unknown[]; pages?: number };
      yield body;
      if (!Array.isArray(body.data) || body.data.length === 0 || !(page < Number(body.pages))) return;
      page += 1;
    }
  }

  async function* paginate(path: string, init?: AnyInit) {
    for await (const page of pages(path, init)) yield* page.data as unknown[];
  }

  async function listAll(path: string, init?: AnyInit) {
    const items: unknown[] = [];
    for await (const item of paginate(path, init)) items.push(item);
    return items;
  }

  async function uploadImage(body: ImageUploadRequest, data: UploadData, { signal }: UploadOptions = {}) {
    const created = await POST('/images/upload', { body, signal });
    if (created.error) throw created.error;
    const { upload_to: target } = created.data as ImageUploadResponse;
    const stream = typeof ReadableStream !== 'undefined' && data instanceof ReadableStream;
    const response = await sendWithRetries(
      () => fetchOf()(new Request(target, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: data as BodyInit,
        signal,
        ...(stream ? { duplex: 'half' } : {}),
      } as RequestInit)),
      // Uploads run as long as they need: no timeout but the caller's signal.
      { method: 'PUT', url: target, signal, retry, replayable: !stream },
    );
    if (!response.ok) throw await ApiError.fromResponse(response, 'PUT', target);
    await response.body?.cancel().catch(() => undefined);
    return created.data as ImageUploadResponse;
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
    use: (...middleware: Middleware[]) => base.use(...middleware),
    eject: (...middleware: Middleware[]) => base.eject(...middleware),
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
