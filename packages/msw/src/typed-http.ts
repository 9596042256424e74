// createHttp(): MSW's `http` with the API's types. Paths are the spec's (`/volumes/{volumeId}`);
// a resolver gets `params`, `query` and `body` checked and typed from @cloudapi/types (path and
// query values coerced to their schema types), and returns the success body (typed; answered
// with the operation's success status), an `HttpResponse` of the success or error body, or
// nothing to let the next handler (such as createHandlers') answer. A path, parameter or body
// the spec does not have is a compile error.
import { http, HttpResponse } from 'msw';
import type { HttpHandler, RequestHandlerOptions } from 'msw';
import type { paths } from '@cloudapi/types';
import type { HttpMethod, OperationRequestBodyContent, PathsWithMethod, ResponseObjectMap, SuccessResponse } from 'openapi-typescript-helpers';
import type { ErrorResponse } from './errors.js';
import { routeUrl } from './handlers.js';
import { operationAt } from './operations.js';
import type { Method } from './operations.js';
import { readRequest } from './request.js';

/** The operation of a path and method, as openapi-typescript generated it. */
export type OperationOf<P extends keyof paths, M extends HttpMethod> = paths[P][M & keyof paths[P]];

type ParametersOf<Op, Where extends 'path' | 'query'> = Op extends { parameters: infer Parameters }
  ? Parameters extends { [K in Where]?: infer Values } ? ([Values] extends [undefined | never] ? Record<string, never> : NonNullable<Values>) : Record<string, never>
  : Record<string, never>;

/** The path parameters of an operation, typed (ids are numbers where the spec says integer). */
export type PathParamsOf<Op> = ParametersOf<Op, 'path'>;
/** The query parameters of an operation (values coerced to their schema types). */
export type QueryOf<Op> = ParametersOf<Op, 'query'>;
/** The JSON request body of an operation; `undefined` when it takes none. */
export type BodyOf<Op> = [OperationRequestBodyContent<Op>] extends [never] ? undefined : OperationRequestBodyContent<Op>;
/** The body of an operation's success answer. */
export type SuccessBodyOf<Op> = ResponseObjectMap<Op> extends infer R extends Record<string | number, any> ? SuccessResponse<R, `${string}/${string}`> : never;

export interface TypedResolverInfo<Op> {
  request: Request;
  params: PathParamsOf<Op>;
  query: QueryOf<Op>;
  body: BodyOf<Op>;
}

/** What a resolver may answer: the success body, an HttpResponse of it or of an ErrorResponse, or nothing (the next handler answers). */
export type TypedAnswer<Op> = SuccessBodyOf<Op> | HttpResponse<SuccessBodyOf<Op> | ErrorResponse> | undefined | void;

export type TypedResolver<Op> = (info: TypedResolverInfo<Op>) => TypedAnswer<Op> | Promise<TypedAnswer<Op>>;

type TypedMethod<M extends HttpMethod> = <P extends PathsWithMethod<paths, M>>(path: P, resolver: TypedResolver<OperationOf<P, M>>, options?: RequestHandlerOptions) => HttpHandler;

export interface TypedHttp {
  get: TypedMethod<'get'>;
  post: TypedMethod<'post'>;
  put: TypedMethod<'put'>;
  delete: TypedMethod<'delete'>;
}

export interface HttpOptions {
  baseUrl: string;
  /** Check the token and the request against the spec before the resolver (401, 400 naming the field). Default true. */
  validate?: boolean;
}

export function createHttp(options: HttpOptions): TypedHttp {
  const method = (name: Method) => (path: string, resolver: (info: any) => unknown, handlerOptions?: RequestHandlerOptions): HttpHandler => {
    const op = operationAt(name, path);
    return http[name](routeUrl(options.baseUrl, op), async ({ request, params }) => {
      const read = await readRequest(op, request, params, { validate: options.validate ?? true });
      if (read instanceof Response) return read;
      const answer = await resolver({ request, ...read });
      if (answer === undefined || answer instanceof Response) return answer;
      return HttpResponse.json(answer as any, { status: op.successStatus });
    }, handlerOptions);
  };
  return { get: method('get'), post: method('post'), put: method('put'), delete: method('delete') } as TypedHttp;
}
