// The error of a failed call: the HTTP status and the spec's `errors` list.
import type { ErrorDetail } from '@cloudapi/types';
import type { ErrorResponse as ErrorBodies, ResponseObjectMap } from 'openapi-typescript-helpers';
import { parseRetryAfter } from './retry.js';

/** The error bodies an operation declares (its 4xx responses): the spec's `ErrorResponse`. */
export type ErrorBodyOf<Operation> = ResponseObjectMap<Operation> extends infer R extends Record<string | number, any>
  ? ErrorBodies<R, `${string}/${string}`>
  : never;

/** The item type of an error body's `errors` list, `ErrorDetail` when the operation declares none. */
export type ErrorDetailOf<Body> = [Body] extends [never]
  ? ErrorDetail
  : Body extends { errors: ReadonlyArray<infer Detail> } ? Detail : ErrorDetail;

/** The `ApiError` a call of `Operation` can give: `errors` typed from the operation's error responses. */
export type OperationError<Operation> = ApiError<ErrorDetailOf<ErrorBodyOf<Operation>>>;

function detailsOf(body: unknown, response: Response): ErrorDetail[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors) && errors.length > 0 && errors.every((e) => e && typeof e.reason === 'string')) {
    return errors as ErrorDetail[];
  }
  // A failure outside the contract (a proxy's 502 page, an empty 500): one entry with the status text.
  const text = typeof body === 'string' && body.trim() !== '' && body.length <= 200 ? body.trim() : '';
  return [{ reason: text || `${response.status} ${response.statusText || 'error'}`.trim() }];
}

function describe(details: readonly ErrorDetail[]): string {
  return details.map((d) => (d.field ? `${d.field}: ${d.reason}` : d.reason)).join('; ');
}

/**
 * A call that answered a non-2xx status. `errors` is never empty: the body's `errors` when it is
 * the spec's error body, else one entry made from the status.
 */
export class ApiError<Detail = ErrorDetail> extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status, such as 400 or 404. */
  readonly status: number;
  /** What went wrong: `{ field?, reason }` entries as the spec's `ErrorResponse` defines them. */
  readonly errors: Detail[];
  /** The parsed body as received (JSON, else text), for failures outside the contract. */
  readonly body: unknown;
  /** The HTTP method and URL of the call. */
  readonly method: string;
  readonly url: string;
  /** `Retry-After` in milliseconds, when the response carried one (429). */
  readonly retryAfterMs: number | undefined;
  /** The response, its body already read. */
  readonly response: Response;

  constructor(response: Response, body: unknown, method: string, url: string = response.url) {
    const errors = detailsOf(body, response);
    super(`${method} ${url} failed with ${response.status}: ${describe(errors)}`);
    this.status = response.status;
    this.errors = errors as Detail[];
    this.body = body;
    this.method = method;
    this.url = url;
    this.retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    this.response = response;
  }

  /** Reads a failed response's body (JSON, else text) and makes its error. */
  static async fromResponse(response: Response, method: string, url?: string): Promise<ApiError> {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return new ApiError(response, body, method, url);
  }
}

/** Whether a value is an `ApiError`, also across copies of the package (ESM and CommonJS). */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError || (value instanceof Error && value.name === 'ApiError' && Array.isArray((value as ApiError).errors));
}
