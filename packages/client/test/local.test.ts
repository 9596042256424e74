// Pagination over several pages and the upload helper's second step, against a local server on
// 127.0.0.1 that implements just enough of the API (the mock always answers page 1 of 1).
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../src/index.js';
import { json, startServer, type Handler, type LocalServer } from './helpers.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const region = (n: number) => ({ id: `region-${n}`, country: 'us', capabilities: [], resolvers: { ipv4: '192.0.2.1', ipv6: '2001:db8::1' }, status: 'ok' });

/** A list of `total` regions, paginated as the spec says (page from 1, page_size default 100). */
const regionList = (total: number, failOnPage?: number): Handler => (request, response) => {
  const page = Number(request.url.searchParams.get('page') ?? 1);
  const size = Number(request.url.searchParams.get('page_size') ?? 100);
  if (page === failOnPage) return json(response, 403, { errors: [{ reason: 'Forbidden' }] });
  const all = Array.from({ length: total }, (_, i) => region(i + 1));
  json(response, 200, { data: all.slice((page - 1) * size, page * size), page, pages: Math.ceil(total / size), results: total });
};

async function clientFor(handler: Handler) {
  server = await startServer(handler);
  return createClient({ baseUrl: `${server.url}/v4`, token: 't', retry: { baseDelayMs: 1 } });
}
const queries = () => server!.requests.map((r) => Object.fromEntries(r.url.searchParams));

describe('pagination', () => {
  it('collects every page, sending the caller\'s page_size with each request', async () => {
    const client = await clientFor(regionList(60));
    const regions = await client.listAll('/regions', { params: { query: { page_size: 25 } } });
    expect(regions.map((r) => r.id)).toEqual(Array.from({ length: 60 }, (_, i) => `region-${i + 1}`));
    expect(queries()).toEqual([{ page: '1', page_size: '25' }, { page: '2', page_size: '25' }, { page: '3', page_size: '25' }]);
    expect(server!.requests.every((r) => r.url.pathname === '/v4/regions')).toBe(true);
  });

  it('sends the filter as X-Filter, JSON with escapes past ASCII, with every page', async () => {
    const client = await clientFor(regionList(60));
    const filter = { label: { '+contains': 'données ☃ 😀' }, '+order_by': 'label' as const };
    // The local server answers regions for any list: only what the client sends is checked here.
    await client.listAll('/volumes', { params: { query: { page_size: 25 } }, filter });
    const sent = server!.requests.map((r) => r.headers['x-filter']);
    expect(sent).toHaveLength(3);
    expect(new Set(sent)).toEqual(new Set(['{"label":{"+contains":"donn\\u00e9es \\u2603 \\ud83d\\ude00"},"+order_by":"label"}']));
    expect(JSON.parse(sent[0] as string)).toEqual(filter);
  });

  it('sends a GET\'s filter as X-Filter', async () => {
    const client = await clientFor(regionList(3));
    await client.GET('/volumes', { filter: { tags: 'prod' } });
    expect(server!.requests[0]!.headers['x-filter']).toBe('{"tags":"prod"}');
  });

  it('iterates lazily: breaking out after the first items fetches no further page', async () => {
    const client = await clientFor(regionList(60));
    const first = [];
    for await (const item of client.paginate('/regions', { params: { query: { page_size: 25 } } })) {
      first.push(item);
      if (first.length === 3) break;
    }
    expect(first.map((r) => r.id)).toEqual(['region-1', 'region-2', 'region-3']);
    expect(server!.requests).toHaveLength(1);
  });

  it('starts at the caller\'s page and yields whole pages from pages()', async () => {
    const client = await clientFor(regionList(60));
    const pages = [];
    for await (const page of client.pages('/regions', { params: { query: { page: 2, page_size: 25 } } })) pages.push([page.page, page.data.length]);
    expect(pages).toEqual([[2, 25], [3, 10]]);
  });

  it('makes one request for an empty list', async () => {
    const client = await clientFor(regionList(0));
    expect(await client.listAll('/regions')).toEqual([]);
    expect(queries()).toEqual([{ page: '1' }]);
  });

  it('throws the ApiError of a failed page after yielding the pages before it', async () => {
    const client = await clientFor(regionList(60, 2));
    const seen: string[] = [];
    const walk = async () => { for await (const r of client.paginate('/regions', { params: { query: { page_size: 25 } } })) seen.push(r.id); };
    await expect(walk()).rejects.toBeInstanceOf(ApiError);
    await expect(client.listAll('/regions', { params: { query: { page_size: 25 } } })).rejects.toMatchObject({ status: 403, errors: [{ reason: 'Forbidden' }] });
    expect(seen).toHaveLength(25);
  });

  it('stops when the server keeps answering the same page, without yielding it twice', async () => {
    const client = await clientFor((_, response) => json(response, 200, { data: [region(1)], page: 1, pages: 3, results: 3 }));
    await expect(client.listAll('/regions')).rejects.toMatchObject({ name: 'PaginationError', reason: 'repeated-page', items: [region(1)] });
    expect(queries().map((q) => q.page)).toEqual(['1', '2']);
  });
});

describe('uploadImage', () => {
  const image = { id: 'private/17', label: 'img', description: null, created: '2021-09-02T09:00:00', updated: '2021-09-02T09:00:00', created_by: 'alice', deprecated: false, eol: null, expiry: null, is_public: false, size: 0, status: 'pending_upload', type: 'manual', vendor: null };
  /** The API's create step and an upload target on the same local server; `target` answers the PUTs. */
  const api = (target: Handler): Handler => (request, response, index) => {
    if (request.method === 'POST') return json(response, 200, { image, upload_to: `${server!.url}/upload/private-17?signature=abc` });
    return target(request, response, index);
  };

  it('PUTs the bytes to upload_to after creating the image, retrying a 503', async () => {
    let puts = 0;
    const client = await clientFor(api((_, response) => { puts += 1; response.writeHead(puts === 1 ? 503 : 200).end(); }));
    const blob = new Blob([new Uint8Array([9, 8, 7])]);
    const answer = await client.uploadImage({ label: 'img', region: 'us-east' }, blob);
    expect(answer.image.id).toBe('private/17');
    const [create, ...sent] = server!.requests;
    expect(create).toMatchObject({ method: 'POST' });
    expect(JSON.parse(create!.body.toString())).toEqual({ label: 'img', region: 'us-east' });
    expect(create!.headers.authorization).toBe('Bearer t');
    expect(sent.map((r) => [r.method, r.url.pathname, r.url.search, r.headers['content-type'], r.headers.authorization, [...r.body]])).toEqual([
      ['PUT', '/upload/private-17', '?signature=abc', 'application/octet-stream', undefined, [9, 8, 7]],
      ['PUT', '/upload/private-17', '?signature=abc', 'application/octet-stream', undefined, [9, 8, 7]],
    ]);
  });

  it('streams a ReadableStream, and does not retry it', async () => {
    const client = await clientFor(api((_, response) => { response.writeHead(503).end(); }));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1, 2]));
        controller.enqueue(new Uint8Array([3]));
        controller.close();
      },
    });
    await expect(client.uploadImage({ label: 'img', region: 'us-east' }, stream)).rejects.toMatchObject({ name: 'ApiError', status: 503, method: 'PUT' });
    const puts = server!.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect([...puts[0]!.body]).toEqual([1, 2, 3]);
  });

  it('throws an ApiError naming the upload URL when the upload is refused', async () => {
    const client = await clientFor(api((_, response) => { response.writeHead(403, { 'content-type': 'application/xml' }).end('<Error>SignatureDoesNotMatch</Error>'); }));
    const failure = await client.uploadImage({ label: 'img', region: 'us-east' }, new ArrayBuffer(4)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 403, method: 'PUT', errors: [{ reason: '<Error>SignatureDoesNotMatch</Error>' }] });
    expect((failure as ApiError).url).toMatch(/\/upload\/private-17\?signature=abc$/);
  });
});

describe('multipart bodies', () => {
  // The generated requestMediaTypes map says which operations take multipart/form-data.
  const attachment = async (body: FormData | { file: string | Blob }) => {
    const client = await clientFor((_, response) => json(response, 200, {}));
    const { error } = await client.POST('/support/tickets/{ticketId}/attachments', { params: { path: { ticketId: 11223 } }, body });
    expect(error).toBeUndefined();
    const [sent] = server!.requests;
    const type = String(sent!.headers['content-type']);
    // Read back with fetch's own multipart parser: the boundary of the header must be the body's.
    const file = (await new Response(new Uint8Array(sent!.body), { headers: { 'content-type': type } }).formData()).get('file') as File;
    return { type, text: sent!.body.toString(), file: { name: file.name, content: await file.text() } };
  };

  it('sends a plain object as multipart/form-data, a Blob as a file part', async () => {
    const { type, text, file } = await attachment({ file: new File(['hello'], 'notes.txt', { type: 'text/plain' }) });
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    expect(file).toEqual({ name: 'notes.txt', content: 'hello' });
    expect(text).toMatch(/Content-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text\/plain\r\n\r\nhello/);
  });

  it('passes FormData through as it is', async () => {
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4']), 'invoice.pdf');
    const { type, text, file } = await attachment(form);
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    expect(file).toEqual({ name: 'invoice.pdf', content: '%PDF-1.4' });
    expect(text).toContain('filename="invoice.pdf"');
  });

  it('keeps JSON for every other operation', async () => {
    const client = await clientFor((_, response) => json(response, 200, {}));
    await client.POST('/volumes/{volumeId}/clone', { params: { path: { volumeId: 1 } }, body: { label: 'copy' } });
    const [sent] = server!.requests;
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent!.body.toString())).toEqual({ label: 'copy' });
  });
});

describe('middleware', () => {
  it('sends the Request middleware made, the same on a retry', async () => {
    const client = await clientFor((request, response, index) => {
      if (index === 0) return json(response, 429, { errors: [{ reason: 'Too many requests' }] }, { 'retry-after': '0' });
      json(response, 200, { id: 1 });
    });
    const seen: string[] = [];
    client.use({
      onRequest: ({ request }) => new Request(request, { body: JSON.stringify({ label: 'signed', region: 'us-east' }), headers: { ...Object.fromEntries(request.headers), 'x-signature': 'abc' } }),
      onResponse: ({ response }) => void seen.push(String(response.status)),
    });
    const { error } = await client.POST('/volumes', { body: { label: 'data', region: 'us-east' } });
    expect(error).toBeUndefined();
    expect(server!.requests.map((r) => [r.method, r.headers['x-signature'], r.headers.authorization, JSON.parse(r.body.toString())])).toEqual([
      ['POST', 'abc', 'Bearer t', { label: 'signed', region: 'us-east' }],
      ['POST', 'abc', 'Bearer t', { label: 'signed', region: 'us-east' }],
    ]);
    expect(seen).toEqual(['200']);
  });

  it('without middleware, sends the JSON body again on a retry, with its length', async () => {
    const client = await clientFor((request, response, index) => {
      if (index === 0) return json(response, 429, { errors: [{ reason: 'Too many requests' }] }, { 'retry-after': '0' });
      json(response, 200, { id: 1 });
    });
    await client.POST('/volumes', { body: { label: 'data', region: 'us-east' } });
    expect(server!.requests.map((r) => [r.headers['content-type'], r.headers['content-length'], r.body.toString()])).toEqual([
      ['application/json', '35', '{"label":"data","region":"us-east"}'],
      ['application/json', '35', '{"label":"data","region":"us-east"}'],
    ]);
  });
});

describe('the token and headers', () => {
  it('sends the token over the client\'s headers, and a call\'s own Authorization over both', async () => {
    server = await startServer((_, response) => json(response, 200, { id: 1 }));
    const baseUrl = `${server.url}/v4`;
    const fixed = createClient({ baseUrl, token: 'fixed', headers: { authorization: 'Bearer from-headers' } });
    const refreshed = createClient({ baseUrl, token: async () => 'refreshed', headers: { authorization: 'Bearer from-headers' } });
    for (const client of [fixed, refreshed]) {
      await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } } });
      await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } }, headers: { authorization: 'Bearer for-this-call' } });
    }
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer fixed', 'Bearer for-this-call', 'Bearer refreshed', 'Bearer for-this-call']);
  });
});
