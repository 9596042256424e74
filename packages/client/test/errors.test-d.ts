// Type tests of the errors (compiled by `vitest run` in typecheck mode; never executed): a call's
// `error` is discriminated by `status`, each status an operation declares narrowing to that
// response's body, every other status to the body the client recognises, and `instanceof ApiError`
// gives honest fields rather than `any`. An unused @ts-expect-error fails the run.
import { describe, expectTypeOf, it } from 'vitest';
import {
  ApiError, createClient, isApiError, unwrap, type DeclaredStatus, type HttpStatus, type Operation, type OperationError, type RecognisedErrorBody,
  type UndeclaredStatus,
} from '../src/index.js';
import type { ErrorDetail, ErrorResponse } from '@cloudapi/types';

const client = createClient({ baseUrl: 'https://api.cloud.example/v4' });

/**
 * The statuses one union has and the other lacks: `never` when both are the same set. Unions of
 * some 400 status literals are compared this way, as `toEqualTypeOf` over them took TypeScript
 * over a second each; a status widened to `number` or `any` is not `never` either.
 */
type StatusesDiffer<A, B> = Exclude<A, B> | Exclude<B, A>;

/** An operation as openapi-typescript writes one that declares a 409 with a body of its own (the spec has none yet). */
interface ConflictBody {
  errors: Array<{ reason: string; conflicting_id: number }>;
  conflicting_id: number;
}
interface WithConflict {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  requestBody?: never;
  responses: {
    200: { headers: { [name: string]: unknown }; content: { 'application/json': { id: number } } };
    400: { headers: { [name: string]: unknown }; content: { 'application/json': ErrorResponse } };
    409: { headers: { [name: string]: unknown }; content: { 'application/json': ConflictBody } };
    503: { headers: { [name: string]: unknown }; content?: never };
  };
}

describe('an operation\'s error', () => {
  it('narrows on a 409 to the body the operation declares for it', () => {
    const error = {} as OperationError<WithConflict>;
    expectTypeOf<DeclaredStatus<WithConflict>>().toEqualTypeOf<400 | 409 | 503>();
    if (error.status === 409) {
      expectTypeOf(error.body).toEqualTypeOf<ConflictBody | string | undefined>();
      if (typeof error.body === 'object') expectTypeOf(error.body.conflicting_id).toEqualTypeOf<number>();
      // entries from the 409 body, or the one the client writes when the body was something else
      expectTypeOf(error.errors).toEqualTypeOf<Array<{ reason: string; conflicting_id: number } | ErrorDetail>>();
    }
    if (error.status === 400) expectTypeOf(error.body).toEqualTypeOf<ErrorResponse | string | undefined>();
    if (error.status === 503) expectTypeOf(error.body).toEqualTypeOf<string | undefined>();
    // @ts-expect-error the body may be a proxy's page (text) until it is checked to be the object
    void error.body.conflicting_id;
  });

  it('gives every status the operation does not declare its own variant, with the body the client recognises', () => {
    const error = {} as OperationError<WithConflict>;
    if (error.status === 418 || error.status === 200 || error.status === 0) {
      expectTypeOf(error.body).toEqualTypeOf<RecognisedErrorBody | string | undefined>();
      expectTypeOf(error.errors).toEqualTypeOf<ErrorDetail[]>();
    }
    if (error.status !== 400 && error.status !== 409 && error.status !== 503) expectTypeOf<StatusesDiffer<typeof error.status, UndeclaredStatus<WithConflict>>>().toBeNever();
    expectTypeOf<StatusesDiffer<UndeclaredStatus<WithConflict>, Exclude<HttpStatus, 400 | 409 | 503>>>().toBeNever();
    expectTypeOf<409>().not.toExtend<UndeclaredStatus<WithConflict>>();
    expectTypeOf<599>().toExtend<UndeclaredStatus<WithConflict>>();
    // @ts-expect-error no status outside 0 and 200-599 reaches an ApiError
    void (error.status === 700);
  });

  it('is discriminated by status on the spec\'s operations: a 409 that POST /volumes does not declare is the other variant', async () => {
    const { error } = await client.POST('/volumes', { body: { label: 'data', region: 'us-east' } });
    if (!error) return;
    expectTypeOf<DeclaredStatus<Operation<'/volumes', 'post'>>>().toEqualTypeOf<400 | 401 | 403 | 413 | 429>();
    expectTypeOf<StatusesDiffer<typeof error.status, 400 | 401 | 403 | 413 | 429 | UndeclaredStatus<Operation<'/volumes', 'post'>>>>().toBeNever();
    if (error.status === 400) {
      expectTypeOf(error).toEqualTypeOf<ApiError<400, ErrorResponse | string | undefined>>();
      expectTypeOf(error.errors[0]!.field).toEqualTypeOf<string | undefined>();
    }
    if (error.status === 409) expectTypeOf(error).toEqualTypeOf<ApiError<UndeclaredStatus<Operation<'/volumes', 'post'>>, RecognisedErrorBody | string | undefined>>();
    switch (error.status) {
      case 400: case 401: case 403: case 413: case 429:
        break;
      default:
        expectTypeOf<StatusesDiffer<typeof error.status, UndeclaredStatus<Operation<'/volumes', 'post'>>>>().toBeNever();
    }
    // GET /regions is public: it declares no 401 or 403, so a 401 is the undeclared variant.
    const regions = await client.GET('/regions');
    if (regions.error?.status === 401) expectTypeOf(regions.error.body).toEqualTypeOf<RecognisedErrorBody | string | undefined>();
  });
});

describe('ApiError', () => {
  it('is generic over the status and the body, and any variant is an ApiError', () => {
    expectTypeOf<ApiError<404, ErrorResponse>['status']>().toEqualTypeOf<404>();
    expectTypeOf<ApiError<404, ErrorResponse>['body']>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<OperationError<WithConflict>>().toExtend<ApiError>();
    expectTypeOf<ApiError<409, ConflictBody>>().toExtend<ApiError<number, unknown>>();
  });

  it('narrows a caught value to honest fields, not any', async () => {
    try {
      await unwrap(client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } } }));
    } catch (e) {
      if (e instanceof ApiError) {
        expectTypeOf(e.status).toEqualTypeOf<number>();
        expectTypeOf(e.errors).toEqualTypeOf<ErrorDetail[]>();
        expectTypeOf(e.body).toEqualTypeOf<RecognisedErrorBody | string | undefined>();
        // @ts-expect-error not any: no such field
        void e.statusCode;
      }
      if (isApiError(e)) expectTypeOf(e.errors).toEqualTypeOf<ErrorDetail[]>();
    }
  });
});
