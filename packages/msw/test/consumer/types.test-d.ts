// The consumer's type test: a wrong parameter type is a compile error.
import { createHttp } from '@cloudapi/msw';
import { createClient } from '@cloudapi/client';
import { expectTypeOf, it } from 'vitest';

const http = createHttp({ baseUrl: 'https://api.example.test/v4' });
const client = createClient({ baseUrl: 'https://api.example.test/v4' });

it('types the override and the client from the spec', () => {
  http.get('/volumes/{volumeId}', ({ params }) => {
    expectTypeOf(params.volumeId).toBeNumber();
    // @ts-expect-error volumeId is a number: a string is a compile error
    const id: string = params.volumeId;
    void id;
    return undefined;
  });
  // @ts-expect-error volumeId must be a number
  void client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 'twelve' } } });
});
