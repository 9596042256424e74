// The overrides' types: paths as the spec writes them, params/query/body typed from
// @cloudapi/types, answers checked against the success and error bodies. Each expect-error
// directive below marks a line that must not compile (an unused one fails this file).
import { HttpResponse } from 'msw';
import type { HttpHandler } from 'msw';
import { describe, expectTypeOf, it } from 'vitest';
import type { components } from '@cloudapi/types';
import type { TokenEntry as EngineTokenEntry } from '@cloudapi/server/engine';
import { createHandlers, createHttp } from '../src/index.js';
import type { StatefulStore, TokenEntry } from '../src/index.js';

type Volume = components['schemas']['Volume'];
declare const volume: Volume;
const http = createHttp({ baseUrl: 'https://api.cloud.test/v4' });

describe('createHttp types', () => {
  it('types params, query and body from the spec', () => {
    http.get('/volumes/{volumeId}', ({ params }) => {
      expectTypeOf(params.volumeId).toEqualTypeOf<number>();
      // @ts-expect-error volumeId is a number, not a string
      params.volumeId.toUpperCase();
      // @ts-expect-error no such path parameter
      void params.volumeID;
      return volume;
    });
    http.get('/volumes', ({ query }) => {
      expectTypeOf(query.page).toEqualTypeOf<number | undefined>();
      // @ts-expect-error not a query parameter of listVolumes
      void query.limit;
      return undefined;
    });
    http.post('/volumes', ({ body }) => {
      expectTypeOf(body.label).toEqualTypeOf<string>();
      // @ts-expect-error size is a number
      const size: string = body.size;
      void size;
      return volume;
    });
  });

  it('checks what a resolver answers', () => {
    expectTypeOf(http.get('/volumes/{volumeId}', () => volume)).toEqualTypeOf<HttpHandler>();
    http.get('/volumes/{volumeId}', () => HttpResponse.json({ errors: [{ reason: 'gone' }] }, { status: 404 }));
    // @ts-expect-error id must be a number
    http.get('/volumes/{volumeId}', () => ({ ...volume, id: 'one' }));
    // @ts-expect-error a body that is neither the success nor the error body
    http.get('/volumes/{volumeId}', () => HttpResponse.json({ nothing: true }));
  });

  it('refuses paths and methods the spec does not have', () => {
    // @ts-expect-error no such path
    http.get('/volume/{volumeId}', () => undefined);
    // @ts-expect-error the spec has no POST on a single volume
    http.post('/volumes/{volumeId}', () => undefined);
  });
});

describe('createHandlers types', () => {
  it('gives a non-null store with stateful: true, and null without', () => {
    const stateful = createHandlers({ baseUrl: 'https://api.cloud.test/v4', stateful: true });
    expectTypeOf(stateful.store).toEqualTypeOf<StatefulStore>();
    expectTypeOf(stateful.store.reset()).toEqualTypeOf<Promise<void>>();
    const examples = createHandlers({ baseUrl: 'https://api.cloud.test/v4' });
    expectTypeOf(examples.store).toEqualTypeOf<null>();
    // @ts-expect-error no store without the stateful mode
    void examples.store.reset();
    const either = createHandlers({ baseUrl: 'https://api.cloud.test/v4', stateful: Math.random() > 0.5 });
    expectTypeOf(either.store).toEqualTypeOf<StatefulStore | null>();
  });

  it('takes tokens in the server\'s tokens-file form', () => {
    expectTypeOf<TokenEntry>().toEqualTypeOf<EngineTokenEntry>();
    createHandlers({ baseUrl: '/v4', stateful: true, tokens: [{ token: 't', scopes: 'volumes:read_only', grants: ['add_volumes'] }] });
    // @ts-expect-error scopes is a space-separated string
    createHandlers({ baseUrl: '/v4', stateful: true, tokens: [{ token: 't', scopes: ['volumes:read_only'] }] });
  });
});
