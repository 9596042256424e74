// The error of a call that did not get a valid success: an error status, a redirect that was not
// followed, or a success whose body is not what the spec declares.
import type { ErrorDetail } from '@cloudapi/types';
import type { ErrorResponse as ErrorBodies, ResponseObjectMap } from 'openapi-typescript-helpers';
import { parseRetryAfter } from './retry.js';
import { readRateLimit } from './rate-limit.js';
import type { RateLimit } from './rate-limit.js';

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

/**
 * A call that got no valid success. `errors` is never empty: the body's `errors` when it is the
 * spec's error body, else one entry saying what was wrong (with an excerpt of the body).
 */
export class ApiError<Detail = ErrorDetail> extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status, such as 400 or 404; a 2xx when the success body was unusable, 0 for a browser's opaque redirect. */
  declare readonly status: number;
  /** The operation as the spec names it: `GET /volumes/{volumeId}` (`PUT upload_to` for an upload). */
  declare readonly operation: string;
  /** What went wrong: `{ field?, reason }` entries as the spec's `ErrorResponse` defines them. */
  declare readonly errors: Detail[];
  /** The body as received: parsed JSON, else its text; undefined when empty. */
  declare readonly body: unknown;
  /** The start of the body's text (JSON for a parsed body): at most 200 characters; "" when empty. */
  declare readonly excerpt: string;
  /** The HTTP method and the URL requested. */
  declare readonly method: string;
  declare readonly url: string;
  /** `Retry-After` in milliseconds, when the response carried a valid one (429, 503). */
  declare readonly retryAfterMs: number | undefined;
  /** The X-RateLimit-* headers of the response (limit, remaining, reset), when it carried them. */
  declare readonly rateLimit: RateLimit | undefined;
  /** The response, its body already read. */
  declare readonly response: Response;

  /**
   * `problem`, when given, says why a response that may look fine is refused (a success body that
   * is not JSON); `cause` is the underlying error (a `SyntaxError`). A 3xx with a Location is a
   * redirect the client did not follow (see redirects.ts).
   */
  constructor(response: Response, body: unknown, operation: string, url: string = response.url, problem?: string, cause?: unknown) {
    const { status } = response;
    const location = response.headers.get('location');
    if (location && status > 299 && status < 400) problem = `${status} redirect to ${location} not followed`;
    const excerpt = (typeof body === 'string' ? body : JSON.stringify(body) ?? '').slice(0, 200);
    // The spec's error body gives the errors; anything else becomes one entry.
    let errors = (body as { errors?: ErrorDetail[] } | null)?.errors;
    if (problem || !Array.isArray(errors) || !errors.length || !errors.every((e) => typeof e?.reason === 'string')) {
      errors = [{ reason: problem ? problem + (excerpt && `: ${excerpt}`) : excerpt || `${status} ${response.statusText}` }];
    }
    super(`${operation} (${url}) failed with ${status}: ${errors.map((d) => (d.field ? `${d.field}: ` : '') + d.reason).join('; ')}`, { cause });
    Object.assign(this, { status, operation, errors, body, excerpt, method: operation.split(' ')[0], url, retryAfterMs: parseRetryAfter(response.headers.get('retry-after')), rateLimit: readRateLimit(response), response });
  }
}

/** Whether a value is an `ApiError`, also across copies of the package (ESM and CommonJS). */
export const isApiError = (value: unknown): value is ApiError => value instanceof Error && value.name === 'ApiError';
