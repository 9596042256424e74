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

/** Digits of a status code. */
type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
type ToNumber<Text> = Text extends `${infer N extends number}` ? N : never;
/** Every status an `ApiError` can carry: 200 to 599 (a 2xx whose body was unusable), and 0 (a browser's opaque redirect). */
export type HttpStatus = 0 | ToNumber<`${2 | 3 | 4 | 5}${Digit}${Digit}`>;

/**
 * The error body the client recognises at run time, whatever the operation: `errors`, a non-empty
 * list of `{ field?, reason }` (the spec's `ErrorResponse`).
 */
export interface RecognisedErrorBody {
  errors: ErrorDetail[];
}
/** What `body` holds when it is not a recognised error body: the text as received, or undefined when empty. */
export type UnrecognisedBody = string | undefined;

type Responses<Operation> = Operation extends { responses: infer R } ? R : never;
/** The error statuses (3xx to 5xx) an operation declares. */
export type DeclaredStatus<Operation> = {
  [S in keyof Responses<Operation>]: S extends number ? (`${S}` extends `${3 | 4 | 5}${string}` ? S : never) : never;
}[keyof Responses<Operation>];
/** Every other status: what the operation does not declare (a 409 nobody wrote down, a proxy's 502, a 2xx that was not the resource). */
export type UndeclaredStatus<Operation> = Exclude<HttpStatus, DeclaredStatus<Operation>>;
/** The JSON body of an operation's response for `Status`; undefined when it declares none. */
export type DeclaredBody<Operation, Status> = Responses<Operation>[Status & keyof Responses<Operation>] extends infer Response
  ? Response extends { content: { 'application/json': infer Body } } ? Body : undefined
  : never;

/**
 * The `ApiError` a call of `Operation` can give, discriminated by `status`: for each error status
 * the operation declares, its body as the spec declares it; for every other status, the body the
 * client recognises. Either way `body` may be the text instead, when the answer did not carry an
 * error body (a proxy's HTML page). Network failures are not here: the call rejects with a TypeError.
 */
export type OperationError<Operation> =
  | { [S in DeclaredStatus<Operation>]: ApiError<S, DeclaredBody<Operation, S> | UnrecognisedBody> }[DeclaredStatus<Operation>]
  | ApiError<UndeclaredStatus<Operation>, RecognisedErrorBody | UnrecognisedBody>;

/**
 * A call that got no valid success. `errors` is never empty: the body's `errors` when it is the
 * spec's error body, else one entry saying what was wrong (with an excerpt of the body).
 */
export class ApiError<Status extends number = number, Body = RecognisedErrorBody | UnrecognisedBody> extends Error {
  override readonly name = 'ApiError';
  /**
   * What `e instanceof ApiError` narrows to: `ApiError` with its defaults (any status, the body the
   * client recognises), where TypeScript would otherwise make every field of a generic class `any`.
   * (Types only: instanceof works as for any class.)
   */
  declare static [Symbol.hasInstance]: (value: unknown) => value is ApiError;
  /** The HTTP status, such as 400 or 404; a 2xx when the success body was unusable, 0 for a browser's opaque redirect. */
  declare readonly status: Status;
  /** The operation as the spec names it: `GET /volumes/{volumeId}` (`PUT upload_to` for an upload). */
  declare readonly operation: string;
  /** What went wrong: `{ field?, reason }` entries as the spec's `ErrorResponse` defines them. */
  declare readonly errors: Array<ErrorDetailOf<Body>>;
  /** The error body when `errors` came from it (parsed JSON), else the body's text; undefined when empty. */
  declare readonly body: Body;
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
    const text = typeof body === 'string' ? body : JSON.stringify(body) ?? '';
    const excerpt = text.slice(0, 200);
    // The spec's error body gives the errors; anything else becomes one entry, and `body` its text.
    let errors = (body as { errors?: ErrorDetail[] } | null)?.errors;
    if (problem || !Array.isArray(errors) || !errors.length || !errors.every((e) => typeof e?.reason === 'string' && typeof (e.field ?? '') === 'string')) {
      errors = [{ reason: problem ? problem + (excerpt && `: ${excerpt}`) : excerpt || `${status} ${response.statusText}` }];
      if (body !== undefined) body = text;
    }
    super(`${operation} (${url}) failed with ${status}: ${errors.map((d) => (d.field ? `${d.field}: ` : '') + d.reason).join('; ')}`, { cause });
    Object.assign(this, { status, operation, errors, body, excerpt, method: operation.split(' ')[0], url, retryAfterMs: parseRetryAfter(response.headers.get('retry-after')), rateLimit: readRateLimit(response), response });
  }
}

/** Whether a value is an `ApiError`, also across copies of the package (ESM and CommonJS). */
export const isApiError = (value: unknown): value is ApiError => value instanceof Error && value.name === 'ApiError';
