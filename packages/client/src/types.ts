// The types of the client's methods: openapi-fetch's call shape, with `error` an `ApiError`, and
// the list operations, found from their response shape.
import type { ListFilters, paths } from '@cloudapi/types';
import type { ParamsOption, RequestOptions } from 'openapi-fetch';
import type {
  HttpMethod, IsOperationRequestBodyOptional, OperationRequestBodyContent, PathsWithMethod, RequiredKeysOf, ResponseObjectMap,
  SuccessResponse,
} from 'openapi-typescript-helpers';
import type { OperationError } from './errors.js';

export type { paths };

/** The operation of a path and method, as openapi-typescript generated it. */
export type Operation<P extends keyof paths, M extends HttpMethod> = paths[P][M & keyof paths[P]];

/**
 * The body of an operation's 2xx response. (openapi-fetch's own types pass it through
 * `Readable<>`, for `$Read`/`$Write` markers this package does not use, which turns the empty
 * object `Record<string, never>` into `never`.)
 */
export type SuccessBody<Op> = ResponseObjectMap<Op> extends infer R extends Record<string | number, any>
  ? SuccessResponse<R, `${string}/${string}`>
  : never;

/** What a call resolves to: openapi-fetch's `{ data, error, response }`, with `error` an `ApiError`. */
export type ApiResult<Op> =
  | { data: SuccessBody<Op>; error?: never; response: Response }
  | { data?: never; error: OperationError<Op>; response: Response };

/** True when the operation's request body is `multipart/form-data`. */
type IsMultipart<Op> = Op extends { requestBody?: { content: infer C } } ? ('multipart/form-data' extends keyof C ? true : false) : false;

/**
 * A multipart body: FormData, or a plain object whose fields may also be Blobs (file parts); the
 * client turns the object into FormData.
 */
export type MultipartBody<Body> = FormData | { [K in keyof Body]: Body[K] | Blob };

type BodyContent<Op> = IsMultipart<Op> extends true ? MultipartBody<OperationRequestBodyContent<Op>> : OperationRequestBodyContent<Op>;

type BodyOption<Op> = [OperationRequestBodyContent<Op>] extends [undefined]
  ? { body?: never }
  : IsOperationRequestBodyOptional<Op> extends true
    ? { body?: BodyContent<Op> }
    : { body: BodyContent<Op> };

/**
 * The options of a call: `params` (`path`, `query`), `body`, and fetch options (`signal`,
 * `headers`, ...). A concrete type rather than openapi-fetch's inferred one, so that TypeScript
 * checks object literals for unknown (and read-only) fields. The client owns how bodies are
 * written and read (`bodySerializer`, `parseAs`), how path parameters are encoded
 * (`pathSerializer`) and redirects (`redirect`); middleware is the client's (`use`), not a call's.
 */
export type CallInit<Op> = ParamsOption<Op> & BodyOption<Op> & Omit<RequestOptions<Op>, 'params' | 'body' | 'parseAs' | 'pathSerializer' | 'bodySerializer' | 'middleware'>
  & Omit<RequestInit, 'body' | 'headers' | 'redirect'>;

/** The options argument, optional unless the operation has required parameters or a body. */
export type CallInitParam<Op> = RequiredKeysOf<CallInit<Op>> extends never ? [init?: CallInit<Op>] : [init: CallInit<Op>];

/** `client.GET`, `client.POST`, ...: every path, parameter and body checked against the spec. */
export type ClientMethod<M extends HttpMethod> = <P extends PathsWithMethod<paths, M>>(
  url: P,
  ...init: CallInitParam<Operation<P, M>>
) => Promise<ApiResult<Operation<P, M>>>;

/** The shape every page of a list has (`PaginationEnvelope` with its `data` narrowed). */
export interface Page<Item = unknown> {
  data: Item[];
  page: number;
  pages: number;
  results: number;
}

type IsPage<Body> = [Body] extends [never] ? false : Body extends Page ? true : false;
/** The paths that have a GET. */
export type GetPath = PathsWithMethod<paths, 'get'>;

/**
 * The paths whose GET answers a page (`data`, `page`, `pages`, `results`): derived from the
 * generated types, so every list of the spec is here and nothing else.
 */
export type ListPath = { [P in GetPath]: IsPage<SuccessBody<Operation<P, 'get'>>> extends true ? P : never }[GetPath];

/** One page of a list operation, as the spec types it (`VolumeList`, ...). */
export type ListPage<P extends ListPath> = SuccessBody<Operation<P, 'get'>>;

/** The items of a list operation (`Volume` for `/volumes`). */
export type ListItem<P extends ListPath> = ListPage<P> extends { data: ReadonlyArray<infer Item> } ? Item : never;

/** Why a walk over a list's pages stopped. */
export interface PaginationStop {
  /**
   * `last-page`: the page numbered `pages` was read. `empty-page`: a page had no items.
   * `repeated-page`: a page began with the same item (same `id`) as an earlier one, as when a
   * server ignores `page`; it is not yielded. `max-pages`: `maxPages` pages were read.
   */
  reason: 'last-page' | 'empty-page' | 'repeated-page' | 'max-pages';
  /** How many pages were requested. */
  pages: number;
}

/** How a walk over pages is bounded and observed. */
export interface PaginationOptions {
  /** The most pages one walk requests. Default 10000. */
  maxPages?: number;
  /**
   * Called once when the walk stops by itself (not when the caller breaks out or a page fails).
   * Passing it also means `listAll` and `paginate` return a partial list instead of throwing a
   * `PaginationError` when the walk stops short.
   */
  onStop?: (stop: PaginationStop) => void;
}

/** The options of a list call (`params.query.page` is where the walk starts, 1 by default). */
/** The `X-Filter` of a list path (its filterable fields and their operators), or never. */
export type ListFilter<P extends ListPath> = P extends keyof ListFilters ? ListFilters[P] : never;

/** `filter`: sent as the `X-Filter` header with every page; only on lists that take one. */
export interface FilterOption<P extends ListPath> {
  filter?: ListFilter<P>;
}

export type ListInit<P extends ListPath> = CallInit<Operation<P, 'get'>> & PaginationOptions & FilterOption<P>;

/** `client.GET`: as `ClientMethod<'get'>`, with `filter` on the lists that take X-Filter. */
export type GetMethod = <P extends GetPath>(
  url: P,
  ...init: P extends ListPath
    ? RequiredKeysOf<CallInit<Operation<P, 'get'>>> extends never ? [init?: CallInit<Operation<P, 'get'>> & FilterOption<P>] : [init: CallInit<Operation<P, 'get'>> & FilterOption<P>]
    : CallInitParam<Operation<P, 'get'>>
) => Promise<ApiResult<Operation<P, 'get'>>>;

/** The `{name}`s of a path template, in order: `ParamNames<'/a/{x}/b/{y}'>` is `'x, y'`. */
type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? (Rest extends `${string}{${string}` ? `${Name}, ${ParamNames<Rest>}` : Name)
  : '';

/**
 * The type the path argument of `pages`, `paginate` and `listAll` must have: the path itself, or,
 * when the call cannot work, a message TypeScript prints in its error ("Argument of type
 * '"/volumes/{volumeId}"' is not assignable to parameter of type '"/volumes/{volumeId} is not a
 * list…"'), rather than "Expected 2 arguments". `Count` is the number of options arguments given.
 */
export type ListPathArgument<P extends GetPath, Count extends number> = P extends ListPath
  ? (RequiredKeysOf<ListInit<P>> extends never ? P : Count extends 0 ? `${P} needs its path parameters: pass { params: { path: { ${ParamNames<P>} } } }` : P)
  : `${P} is not a list: its GET answers one object, not a page (pages, paginate and listAll walk list paths)`;

/**
 * The options argument of `pages`, `paginate` and `listAll`, counted (`length`) so that a missing
 * one is reported on the path argument. Whether it is required is `ListPathArgument`'s to say.
 */
export type ListArguments<P extends GetPath, Count extends number> = (P extends ListPath ? [init?: ListInit<P>] : [init?: CallInit<Operation<P, 'get'>>]) & { length: Count };

/** What a walk over `P` gives: `ListPage<P>`, `ListItem<P>`, or never for a path that is not a list. */
export type ListPageOf<P> = P extends ListPath ? ListPage<P> : never;
export type ListItemOf<P> = P extends ListPath ? ListItem<P> : never;
