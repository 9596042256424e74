// Type tests of the client (compiled by `vitest run` in typecheck mode; never executed): every
// path, parameter and body is checked against the spec, results and errors are exact, and only
// list operations paginate. An unused @ts-expect-error fails the run, so each one must bite.
import { describe, expectTypeOf, it } from 'vitest';
import {
  ApiError, createClient, unwrap, type ApiResult, type ListItem, type ListPath, type ListPathArgument, type Operation, type OperationError, type PaginationStop,
} from '../src/index.js';
import type {
  EmptyObject, ErrorDetail, ErrorResponse, Image, ImageList, ImageUploadResponse, Region, Tag, TaggedObject, Volume, VolumeList,
} from '@cloudapi/types';

const client = createClient({ baseUrl: 'https://api.cloud.example/v4', token: process.env.CLOUDAPI_TOKEN });

describe('calls', () => {
  it('take the documented shape and give exact data or an ApiError', async () => {
    const { data, error, response } = await client.POST('/volumes', { body: { label: 'my-volume', region: 'us-east' } });
    expectTypeOf(response).toEqualTypeOf<Response>();
    if (error) {
      expectTypeOf(error).toEqualTypeOf<OperationError<Operation<'/volumes', 'post'>>>();
      expectTypeOf(error).toExtend<ApiError>();
      expectTypeOf(error.status).toExtend<number>();
      expectTypeOf(error.errors).toEqualTypeOf<ErrorDetail[]>();
      expectTypeOf(error.errors[0]!.field).toEqualTypeOf<string | undefined>();
      expectTypeOf(data).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(data).toEqualTypeOf<Volume>();
    }
    const { data: volume } = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 12345 } } });
    expectTypeOf(volume).toEqualTypeOf<Volume | undefined>();
    const { data: page } = await client.GET('/volumes', { params: { query: { page: 1, page_size: 25 } } });
    expectTypeOf(page).toEqualTypeOf<VolumeList | undefined>();
    expectTypeOf(page!.data.map((v) => v.label)).toEqualTypeOf<string[]>();
    const { data: image } = await client.GET('/images/{imageId}', { params: { path: { imageId: 'compute/debian11' } } });
    expectTypeOf(image).toEqualTypeOf<Image | undefined>();
    const { data: deleted } = await client.DELETE('/volumes/{volumeId}', { params: { path: { volumeId: 1 } } });
    expectTypeOf(deleted).toEqualTypeOf<EmptyObject | undefined>();
    const { data: updated } = await client.PUT('/images/{imageId}', { params: { path: { imageId: 'private/15' } }, body: { description: null } });
    expectTypeOf(updated).toEqualTypeOf<Image | undefined>();
    const { data: images } = await client.GET('/images');
    expectTypeOf(images).toEqualTypeOf<ImageList | undefined>();
  });

  it('reject an unknown path, a method the path lacks and a missing or mistyped path parameter', () => {
    // @ts-expect-error no such path
    void client.GET('/volume');
    // @ts-expect-error /regions has no POST
    void client.POST('/regions', { body: {} });
    // @ts-expect-error volumeId is required
    void client.GET('/volumes/{volumeId}');
    // @ts-expect-error volumeId is an integer
    void client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 'abc' } } });
    // @ts-expect-error page_size is a number
    void client.GET('/volumes', { params: { query: { page_size: '25' } } });
    // @ts-expect-error no such query parameter
    void client.GET('/volumes', { params: { query: { per_page: 25 } } });
  });

  it('reject a body missing a required field, a wrong enum value and a read-only field', () => {
    // @ts-expect-error label is required
    void client.POST('/volumes', { body: { region: 'us-east' } });
    // @ts-expect-error a create needs its body
    void client.POST('/volumes');
    void client.PUT('/images/{imageId}', {
      params: { path: { imageId: 'private/15' } },
      // @ts-expect-error `bogus` is not an image status
      body: { status: 'bogus' },
    });
    void client.POST('/volumes', {
      // @ts-expect-error id is read-only: not part of VolumeCreateRequest
      body: { label: 'data', region: 'us-east', id: 1 },
    });
    void client.POST('/volumes', {
      // @ts-expect-error status is read-only: not part of VolumeCreateRequest
      body: { label: 'data', region: 'us-east', status: 'active' },
    });
    void client.PUT('/volumes/{volumeId}', {
      params: { path: { volumeId: 1 } },
      // @ts-expect-error filesystem_path is read-only: not part of VolumeUpdateRequest
      body: { filesystem_path: '/dev/x' },
    });
    // @ts-expect-error a GET takes no body
    void client.GET('/volumes', { body: { label: 'x' } });
  });

  it('say what can happen: data is the resource exactly when there is no error, which is an ApiError', async () => {
    const result = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } } });
    expectTypeOf(result).toEqualTypeOf<ApiResult<Operation<'/volumes/{volumeId}', 'get'>>>();
    if (!result.error) {
      expectTypeOf(result.data).toEqualTypeOf<Volume>();
      expectTypeOf(result.data.id).toEqualTypeOf<number>();
    }
    if (result.data) expectTypeOf(result.error).toEqualTypeOf<undefined>();
    if (result.error) {
      expectTypeOf(result.data).toEqualTypeOf<undefined>();
      expectTypeOf(result.error).toExtend<ApiError>();
      expectTypeOf(result.error).toExtend<Error>();
      expectTypeOf(result.error.operation).toEqualTypeOf<string>();
      expectTypeOf(result.error.excerpt).toEqualTypeOf<string>();
      expectTypeOf(result.error.body).toEqualTypeOf<ErrorResponse | string | undefined>();
      expectTypeOf(result.error.cause).toEqualTypeOf<unknown>();
      expectTypeOf(result.error.retryAfterMs).toEqualTypeOf<number | undefined>();
    }
    // @ts-expect-error data may be undefined until the error is ruled out
    void result.data.id;
    // @ts-expect-error error is not an unknown: it has the ApiError's fields, and no others
    void result.error?.statusCode;
  });

  it('leave redirects and path encoding to the client', () => {
    // @ts-expect-error redirects are the client's: never followed with a body or to another origin
    void client.GET('/volumes', { redirect: 'follow' });
    // @ts-expect-error path parameters are always encoded as one segment each
    void client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } }, pathSerializer: (path: string) => path });
    // @ts-expect-error the client reads the body itself
    void client.GET('/volumes', { parseAs: 'stream' });
  });

  it('unwrap to the data, throwing the ApiError', async () => {
    expectTypeOf(await unwrap(client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } } }))).toEqualTypeOf<Volume>();
    expectTypeOf(await unwrap(client.POST('/images/upload', { body: { label: 'x', region: 'us-east' } }))).toEqualTypeOf<ImageUploadResponse>();
  });
});

describe('pagination', () => {
  it('accepts list operations only, found from their response shape', () => {
    expectTypeOf<'/volumes'>().toExtend<ListPath>();
    expectTypeOf<'/regions'>().toExtend<ListPath>();
    expectTypeOf<'/tags/{label}'>().toExtend<ListPath>();
    expectTypeOf<'/volumes/{volumeId}'>().not.toExtend<ListPath>();
    expectTypeOf<'/images/upload'>().not.toExtend<ListPath>();
    // @ts-expect-error one volume is not a list, though it takes page and page_size
    void client.listAll('/volumes/{volumeId}', { params: { path: { volumeId: 1 } } });
    // @ts-expect-error a region is not a list
    void client.paginate('/regions/{regionId}', { params: { path: { regionId: 'us-east' } } });
  });

  it('yields the listed resource', async () => {
    for await (const volume of client.paginate('/volumes', { params: { query: { page_size: 25 } } })) {
      expectTypeOf(volume).toEqualTypeOf<Volume>();
    }
    for await (const page of client.pages('/volumes')) expectTypeOf(page).toEqualTypeOf<VolumeList>();
    expectTypeOf(await client.listAll('/regions')).toEqualTypeOf<Region[]>();
    expectTypeOf(await client.listAll('/tags')).toEqualTypeOf<Tag[]>();
    expectTypeOf<ListItem<'/images'>>().toEqualTypeOf<Image>();
    const tagged = await client.listAll('/tags/{label}', { params: { path: { label: 'production' } } });
    expectTypeOf(tagged).toEqualTypeOf<TaggedObject[]>();
  });

  it('are bounded by maxPages and say why they stopped', async () => {
    const walk = client.pages('/volumes', { maxPages: 50, onStop: (stop) => expectTypeOf(stop).toEqualTypeOf<PaginationStop>() });
    expectTypeOf(walk).toEqualTypeOf<AsyncGenerator<VolumeList, PaginationStop, undefined>>();
    const step = await walk.next();
    if (step.done) expectTypeOf(step.value.reason).toEqualTypeOf<'last-page' | 'empty-page' | 'repeated-page' | 'max-pages'>();
    await client.listAll('/regions', { maxPages: 3 });
    // @ts-expect-error maxPages is a number
    void client.listAll('/regions', { maxPages: '3' });
    // @ts-expect-error no such stop reason
    void client.listAll('/regions', { onStop: (stop) => stop.reason === 'server-lied' });
  });

  it('requires the path parameters of the list, saying which on the path argument', () => {
    // @ts-expect-error label is required
    void client.listAll('/tags/{label}');
    // @ts-expect-error label is required
    void client.paginate('/tags/{label}');
    // @ts-expect-error label is required
    void client.pages('/tags/{label}', { params: { query: { page: 2 } } });
    // The message TypeScript prints for each mistake (test/derived.test.ts compiles the calls).
    expectTypeOf<ListPathArgument<'/tags/{label}', 0>>().toEqualTypeOf<'/tags/{label} needs its path parameters: pass { params: { path: { label } } }'>();
    expectTypeOf<ListPathArgument<'/tags/{label}', 1>>().toEqualTypeOf<'/tags/{label}'>();
    expectTypeOf<ListPathArgument<'/volumes', 0>>().toEqualTypeOf<'/volumes'>();
    expectTypeOf<ListPathArgument<'/volumes/{volumeId}', 1>>()
      .toEqualTypeOf<'/volumes/{volumeId} is not a list: its GET answers one object, not a page (pages, paginate and listAll walk list paths)'>();
    // @ts-expect-error page_size is a number
    void client.listAll('/volumes', { params: { query: { page_size: 'all' } } });
  });
});

describe('options and helpers', () => {
  it('take a token, a fetch, retries, a timeout and a user agent', () => {
    createClient({
      baseUrl: 'http://127.0.0.1:4010/v4',
      token: async () => 'refreshed',
      fetch: (request) => fetch(request),
      retry: { retries: 3, baseDelayMs: 100, maxRetryDelayMs: 10_000, onRetry: (event) => expectTypeOf(event.attempt).toEqualTypeOf<number>() },
      timeoutMs: 5_000,
      userAgent: 'my-app/1.0',
    });
    createClient({ baseUrl: 'http://127.0.0.1:4010/v4', retry: false, fetch });
    // @ts-expect-error the longest total wait is maxRetryDelayMs
    createClient({ baseUrl: 'http://127.0.0.1:4010/v4', retry: { maxRetryAfterMs: 1 } });
    // @ts-expect-error baseUrl is required
    createClient({ token: 't' });
  });

  it('upload image bytes after creating the image', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expectTypeOf(await client.uploadImage({ label: 'x', region: 'us-east' }, bytes)).toEqualTypeOf<ImageUploadResponse>();
    // @ts-expect-error region is required by ImageUploadRequest
    void client.uploadImage({ label: 'x' }, bytes);
  });
});

describe('multipart bodies', () => {
  it('take FormData or an object with Blob file parts, only where the spec says multipart', async () => {
    const ticket = { params: { path: { ticketId: 11223 } } };
    await client.POST('/support/tickets/{ticketId}/attachments', { ...ticket, body: new FormData() });
    await client.POST('/support/tickets/{ticketId}/attachments', { ...ticket, body: { file: new Blob(['x']) } });
    // @ts-expect-error the part is named `file`
    await client.POST('/support/tickets/{ticketId}/attachments', { ...ticket, body: { attachment: new Blob(['x']) } });
    // @ts-expect-error a JSON operation takes no FormData
    await client.POST('/volumes', { body: new FormData() });
  });
});
