// The client against servers that misbehave: a real node:http server on 127.0.0.1 (port 0) does
// each thing, and a second one on another port (another origin) receives what must never reach
// it. Every answer that is not a valid success is an ApiError, never a raw SyntaxError; redirects
// never carry a body or the token to another origin; every loop is bounded.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createClient, isPaginationError, MAX_REDIRECTS, PaginationError, MAX_RETRIES, unwrap, type PaginationStop, type RetryEvent, type RetryOptions } from '../src/index.js';
import { json, startServer, type Handler, type LocalServer } from './helpers.js';

const volume = { id: 1, label: 'data', status: 'active', size: 20, region: 'us-east', compute_id: null, compute_label: null, filesystem_path: '/dev/x', created: '2018-01-01T00:01:01', updated: '2018-01-01T00:01:01', tags: [] };
const region = (n: number) => ({ id: `region-${n}`, country: 'us', capabilities: [], resolvers: { ipv4: '192.0.2.1', ipv6: '2001:db8::1' }, status: 'ok' });

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler) {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

/** The API server and a client of it; retries off unless asked, so each request is one answer. */
async function api(handler: Handler, options: { retry?: RetryOptions | false; timeoutMs?: number } = {}) {
  const server = await serve(handler);
  const client = createClient({ baseUrl: `${server.url}/v4`, token: 'secret-token', retry: options.retry ?? false, timeoutMs: options.timeoutMs });
  return { server, client };
}

const getVolume = (client: ReturnType<typeof createClient>) => client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 1 } } });
const raw = (status: number, body: string, headers: Record<string, string> = {}): Handler => (_, response) => {
  response.writeHead(status, headers).end(body);
};

describe('a success whose body is not the resource', () => {
  const cases: Array<[string, Handler, RegExp]> = [
    ['invalid JSON', raw(200, '{"id": 1, "label": ', { 'content-type': 'application/json' }), /not a JSON object: \{"id": 1, "label":/],
    ['an HTML page', raw(200, '<!DOCTYPE html>\n<html><body>Sign in to the Wi-Fi</body></html>', { 'content-type': 'text/html' }), /not a JSON object: <!DOCTYPE html>\n<html><body>Sign in/],
    ['an empty body (Content-Length: 0)', raw(200, '', { 'content-type': 'application/json', 'content-length': '0' }), /not a JSON object$/],
    ['an empty chunked body', (_, response) => { response.writeHead(200, { 'content-type': 'application/json' }); response.end(); }, /not a JSON object$/],
    ['a 204 without a body', raw(204, ''), /not a JSON object$/],
    ['JSON null', raw(200, 'null', { 'content-type': 'application/json' }), /not a JSON object: null/],
    ['a JSON array', raw(200, '[1,2]', { 'content-type': 'application/json' }), /not a JSON object: \[1,2\]/],
  ];

  it.each(cases)('%s is an ApiError with the status, the operation and an excerpt, not a SyntaxError', async (_, handler, reason) => {
    const { client, server } = await api(handler);
    const result = await getVolume(client);
    expect(result.data).toBeUndefined();
    const error = result.error!;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'ApiError', status: result.response.status, operation: 'GET /volumes/{volumeId}', method: 'GET', url: `${server.url}/v4/volumes/1` });
    expect(error.errors).toHaveLength(1);
    expect(error.errors[0]!.reason).toMatch(reason);
    expect(error.message).toContain('GET /volumes/{volumeId}');
  });

  it('keeps the parse failure as the cause, and a 200 excerpt of at most 200 characters', async () => {
    const page = `<html>${'x'.repeat(5_000)}</html>`;
    const { client } = await api(raw(200, page, { 'content-type': 'text/html' }));
    const { error } = await getVolume(client);
    expect(error!.cause).toBeInstanceOf(SyntaxError);
    expect(error!.excerpt).toBe(page.slice(0, 200));
    expect(error!.body).toBe(page);
  });

  it('unwrap() throws that ApiError', async () => {
    const { client } = await api(raw(200, 'not json'));
    await expect(unwrap(client.GET('/regions'))).rejects.toMatchObject({ name: 'ApiError', status: 200, errors: [{ reason: 'not a JSON object: not json' }] });
  });

  it('an error status with an HTML page is an ApiError with its excerpt', async () => {
    const { client } = await api(raw(502, '<html><h1>502 Bad Gateway</h1></html>', { 'content-type': 'text/html' }));
    const { error } = await getVolume(client);
    expect(error).toMatchObject({ status: 502, errors: [{ reason: '<html><h1>502 Bad Gateway</h1></html>' }], excerpt: '<html><h1>502 Bad Gateway</h1></html>' });
    expect(error!.cause).toBeUndefined();
  });

  it('keeps `body` parsed only when it is the spec\'s error body, else as text, so its type can say what it is', async () => {
    const gateway = { message: 'upstream timed out', errors: [{ code: 7 }] };
    const { client } = await api(raw(504, JSON.stringify(gateway), { 'content-type': 'application/json' }));
    const { error } = await getVolume(client);
    expect(error).toMatchObject({ status: 504, body: JSON.stringify(gateway), errors: [{ reason: JSON.stringify(gateway) }] });
    const spec = { errors: [{ field: 'label', reason: 'Too long' }] };
    const second = await api(raw(400, JSON.stringify(spec), { 'content-type': 'application/json' }));
    expect((await getVolume(second.client)).error).toMatchObject({ status: 400, body: spec, errors: spec.errors });
    const badField = { errors: [{ field: 3, reason: 'x' }] };
    const third = await api(raw(400, JSON.stringify(badField), { 'content-type': 'application/json' }));
    expect((await getVolume(third.client)).error).toMatchObject({ status: 400, body: JSON.stringify(badField) });
  });
});

describe('redirects', () => {
  /** A server on another port: another origin, which must receive nothing. */
  const elsewhere = () => serve((_, response) => json(response, 200, { id: 99, label: 'not yours' }));

  it('does not follow a POST answered with 307 to another origin: no body, no token there', async () => {
    const other = await elsewhere();
    const { client, server } = await api((_, response) => { response.writeHead(307, { location: `${other.url}/steal` }).end(); });
    const { data, error } = await client.POST('/volumes', { body: { label: 'data', region: 'us-east' } });
    expect(data).toBeUndefined();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 307, operation: 'POST /volumes' });
    expect(error!.errors[0]!.reason).toBe(`307 redirect to ${other.url}/steal not followed`);
    expect(server.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });

  it('does not follow a GET to another origin either', async () => {
    const other = await elsewhere();
    const { client } = await api((_, response) => { response.writeHead(302, { location: `${other.url}/v4/volumes/1` }).end(); });
    const { error } = await getVolume(client);
    expect(error).toMatchObject({ status: 302, errors: [{ reason: `302 redirect to ${other.url}/v4/volumes/1 not followed` }] });
    expect(other.requests).toHaveLength(0);
  });

  it('does not follow a POST answered with 303 on its own origin', async () => {
    const { client, server } = await api((request, response) => {
      if (request.method === 'POST') return void response.writeHead(303, { location: '/v4/volumes/1' }).end();
      json(response, 200, volume);
    });
    const { error } = await client.POST('/volumes', { body: { label: 'data', region: 'us-east' } });
    expect(error).toMatchObject({ status: 303, errors: [{ reason: '303 redirect to /v4/volumes/1 not followed' }] });
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
  });

  it('follows a GET within the origin, with the token, and answers with the data', async () => {
    const { client, server } = await api((request, response) => {
      if (request.url.pathname === '/v4/volumes/1') return void response.writeHead(301, { location: '/v4/volumes/1/' }).end('moved');
      json(response, 200, volume);
    });
    const { data, error } = await getVolume(client);
    expect(error).toBeUndefined();
    expect(data).toEqual(volume);
    expect(server.requests.map((r) => [r.method, r.raw, r.headers.authorization])).toEqual([
      ['GET', '/v4/volumes/1', 'Bearer secret-token'],
      ['GET', '/v4/volumes/1/', 'Bearer secret-token'],
    ]);
  });

  it(`follows at most ${MAX_REDIRECTS} redirects of a loop, then gives an ApiError naming the Location`, async () => {
    const { client, server } = await api((request, response) => { response.writeHead(302, { location: request.url.pathname }).end(); });
    const { error } = await getVolume(client);
    expect(MAX_REDIRECTS).toBe(5);
    expect(server.requests).toHaveLength(1 + MAX_REDIRECTS);
    expect(error).toMatchObject({ status: 302, errors: [{ reason: '302 redirect to /v4/volumes/1 not followed' }] });
  });

  it('gives an ApiError for a redirect without a Location, or to something that is not a URL', async () => {
    for (const [headers, reason] of [[{}, '301 Moved Permanently'], [{ location: 'http://[::1' }, '301 redirect to http://[::1 not followed']] as const) {
      const { client, server } = await api((_, response) => { response.writeHead(301, headers).end(); });
      const { error } = await getVolume(client);
      expect(error).toMatchObject({ status: 301, errors: [{ reason }] });
      expect(server.requests).toHaveLength(1);
    }
  });

  it('does not follow a redirect of the upload, and sends the upload host no token', async () => {
    const other = await elsewhere();
    const upload = await serve((_, response) => { response.writeHead(307, { location: `${other.url}/bucket` }).end(); });
    const { client, server } = await api((_, response) => json(response, 200, { image: { id: 'private/1' }, upload_to: `${upload.url}/signed?sig=1` }));
    const failure = await client.uploadImage({ label: 'img', region: 'us-east' }, new Uint8Array([1, 2, 3])).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 307, operation: 'PUT upload_to', errors: [{ reason: `307 redirect to ${other.url}/bucket not followed` }] });
    expect(server.requests).toHaveLength(1);
    expect(upload.requests.map((r) => r.headers.authorization)).toEqual([undefined]);
    expect(other.requests).toHaveLength(0);
  });
});

describe('pagination against a server that does not paginate properly', () => {
  const walk = async (client: ReturnType<typeof createClient>, options: { maxPages?: number } = {}) => {
    const stops: PaginationStop[] = [];
    const items = await client.listAll('/regions', { ...options, onStop: (stop) => stops.push(stop) });
    return { items, stops };
  };

  it('stops at a page it has seen when the server ignores `page`', async () => {
    const { client, server } = await api((_, response) => json(response, 200, { data: [region(1), region(2)], page: 1, pages: 1_000_000, results: 2_000_000 }));
    const { items, stops } = await walk(client);
    expect(items.map((r) => r.id)).toEqual(['region-1', 'region-2']);
    expect(stops).toEqual([{ reason: 'repeated-page', pages: 2 }]);
    expect(server.requests).toHaveLength(2);
  });

  it('stops at maxPages when every page is new and `pages` never ends', async () => {
    const { client, server } = await api((request, response) => {
      const page = Number(request.url.searchParams.get('page'));
      json(response, 200, { data: [region(page)], page, pages: 1_000_000, results: 1_000_000 });
    });
    const { items, stops } = await walk(client, { maxPages: 30 });
    expect(items).toHaveLength(30);
    expect(stops).toEqual([{ reason: 'max-pages', pages: 30 }]);
    expect(server.requests).toHaveLength(30);
  });

  it('stops at an empty page even when `pages` says there are more', async () => {
    const { client, server } = await api((request, response) => {
      const page = Number(request.url.searchParams.get('page'));
      json(response, 200, { data: page < 3 ? [region(page)] : [], page, pages: 9, results: 9 });
    });
    const { items, stops } = await walk(client);
    expect(items).toHaveLength(2);
    expect(stops).toEqual([{ reason: 'empty-page', pages: 3 }]);
    expect(server.requests).toHaveLength(3);
  });

  it('stops after the last page, and says so', async () => {
    const { client } = await api((request, response) => {
      const page = Number(request.url.searchParams.get('page'));
      json(response, 200, { data: [region(page)], page, pages: 2, results: 2 });
    });
    expect(await walk(client)).toEqual({ items: [region(1), region(2)], stops: [{ reason: 'last-page', pages: 2 }] });
    const walked = client.pages('/regions');
    const seen = [];
    let step = await walked.next();
    for (; !step.done; step = await walked.next()) seen.push(step.value.page);
    expect(seen).toEqual([1, 2]);
    expect(step.value).toEqual({ reason: 'last-page', pages: 2 });
  });

  it('throws an ApiError when an answer is not a page', async () => {
    const { client } = await api((_, response) => json(response, 200, { items: [region(1)] }));
    const failure = await client.listAll('/regions').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(200);
    expect((failure as ApiError).errors[0]!.reason).toMatch(/^not a page of a list: \{"items":\[\{"id":"region-1"/);
  });
});

describe('pagination that stops short throws a PaginationError unless onStop is given', () => {
  /** A server that answers page 1 whatever page is asked for, and says there are a million pages. */
  const repeatsPageOne: Handler = (_, response) => json(response, 200, { data: [region(1), region(2)], page: 1, pages: 1_000_000, results: 2_000_000 });
  const endless: Handler = (request, response) => {
    const page = Number(request.url.searchParams.get('page'));
    json(response, 200, { data: [region(page)], page, pages: 1_000_000, results: 1_000_000 });
  };

  it('listAll rejects with the reason, the pages read and the items so far when the server repeats page 1', async () => {
    const { client, server } = await api(repeatsPageOne);
    const failure = await client.listAll('/regions').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaginationError);
    expect(isPaginationError(failure)).toBe(true);
    expect(failure).toMatchObject({ name: 'PaginationError', reason: 'repeated-page', pages: 2, itemCount: 2, operation: 'GET /regions' });
    expect((failure as PaginationError<{ id: string }>).items!.map((r) => r.id)).toEqual(['region-1', 'region-2']);
    expect((failure as Error).message).toBe('GET /regions: list incomplete (repeated-page) after 2 pages, 2 items; pass onStop to accept it');
    expect(server.requests).toHaveLength(2);
  });

  it('paginate yields the items it read, then throws', async () => {
    const { client } = await api(repeatsPageOne);
    const seen: string[] = [];
    const failure = await (async () => { for await (const item of client.paginate('/regions')) seen.push(item.id); })().catch((e: unknown) => e);
    expect(seen).toEqual(['region-1', 'region-2']);
    expect(failure).toBeInstanceOf(PaginationError);
    expect(failure).toMatchObject({ reason: 'repeated-page', pages: 2, itemCount: 2, items: undefined });
  });

  it('both throw at maxPages', async () => {
    const { client } = await api(endless);
    await expect(client.listAll('/regions', { maxPages: 3 })).rejects.toMatchObject({ name: 'PaginationError', reason: 'max-pages', pages: 3, itemCount: 3 });
    const failure = await (async () => { for await (const item of client.paginate('/regions', { maxPages: 4 })) void item; })().catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: 'PaginationError', reason: 'max-pages', pages: 4, itemCount: 4 });
  });

  it('an onStop caller gets the partial list and the reason, no error; pages returns the reason', async () => {
    const { client } = await api(repeatsPageOne);
    const stops: PaginationStop[] = [];
    expect(await client.listAll('/regions', { onStop: (stop) => stops.push(stop) })).toHaveLength(2);
    const fromPaginate: unknown[] = [];
    for await (const item of client.paginate('/regions', { onStop: (stop) => stops.push(stop) })) fromPaginate.push(item);
    expect(fromPaginate).toHaveLength(2);
    const walked = client.pages('/regions');
    let step = await walked.next();
    while (!step.done) step = await walked.next();
    expect(step.value).toEqual({ reason: 'repeated-page', pages: 2 });
    expect(stops).toEqual([{ reason: 'repeated-page', pages: 2 }, { reason: 'repeated-page', pages: 2 }]);
  });

  it('a caller that breaks out of paginate gets no error and the walk requests no more pages', async () => {
    const { client, server } = await api(endless);
    for await (const item of client.paginate('/regions')) if (item.id === 'region-2') break;
    expect(server.requests).toHaveLength(2);
  });
});

describe('Retry-After and retry bounds', () => {
  /** A server answering 503 with `retryAfter` `failures` times, then the volume. */
  const unavailable = (retryAfter: string | undefined, failures = 1): Handler => (_, response, index) => {
    if (index >= failures) return json(response, 200, volume);
    json(response, 503, { errors: [{ reason: 'Service unavailable' }] }, retryAfter === undefined ? {} : { 'retry-after': retryAfter });
  };
  const retrying = (extra: RetryOptions = {}) => {
    const events: RetryEvent[] = [];
    return { events, retry: { baseDelayMs: 40, maxDelayMs: 40, random: () => 0.5, onRetry: (e: RetryEvent) => events.push(e), ...extra } };
  };

  it.each(['-5', '1, 2', '1.5', '+3', '0x10', 'soon', 'Tue 1 2', '2025-01-01T00:00:00Z', 'Sun, 06 Nov 1994 08:49:37 UTC'])('backs off instead of reading Retry-After: %s', async (value) => {
    const { events, retry } = retrying();
    const { client, server } = await api(unavailable(value), { retry });
    expect((await getVolume(client)).data).toEqual(volume);
    expect(server.requests).toHaveLength(2);
    expect(events.map((e) => e.delayMs)).toEqual([20]); // the backoff: 0.5 × min(40, 40 × 2^0)
  });

  // An hour from now in the three forms of RFC 9110's HTTP-date.
  const later = new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000);
  const [day, date, month, year, time] = later.toUTCString().replace(',', '').split(' ');
  const longDay = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][later.getUTCDay()];
  it.each([
    ['IMF-fixdate', later.toUTCString()],
    ['RFC 850', `${longDay}, ${date}-${month}-${year!.slice(2)} ${time} GMT`],
    ['asctime', `${day} ${month} ${String(later.getUTCDate()).padStart(2, ' ')} ${time} ${year}`],
  ])('reads an HTTP-date Retry-After (%s: %s)', async (_, value) => {
    const { events, retry } = retrying();
    const { client, server } = await api((__, response) => json(response, 429, { errors: [{ reason: 'Too many requests' }] }, { 'retry-after': value }), { retry });
    const { error } = await getVolume(client);
    // An hour is longer than maxRetryDelayMs: the 429 comes back at once, with the wait it asks.
    expect(error!.retryAfterMs).toBeGreaterThan(3_590_000);
    expect(error!.retryAfterMs).toBeLessThanOrEqual(3_600_000);
    expect(events).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it(`makes at most ${MAX_RETRIES} retries, whatever \`retries\` says`, async () => {
    const { events, retry } = retrying({ retries: 1_000, random: () => 0 });
    const { client, server } = await api(unavailable(undefined, Infinity), { retry });
    const { error } = await getVolume(client);
    expect(error).toMatchObject({ status: 503 });
    expect(MAX_RETRIES).toBe(10);
    expect(server.requests).toHaveLength(1 + MAX_RETRIES);
    expect(events).toHaveLength(MAX_RETRIES);
  });

  it('stops retrying when the next wait would take the call past maxRetryDelayMs', async () => {
    const { events, retry } = retrying({ retries: 10, random: () => 0.999, maxRetryDelayMs: 100 });
    const { client, server } = await api(unavailable(undefined, Infinity), { retry });
    const { error } = await getVolume(client);
    expect(error).toMatchObject({ status: 503 });
    expect(events.map((e) => e.delayMs)).toEqual([39, 39]);
    expect(server.requests).toHaveLength(3);
  });

  it('returns a 429 at once when its Retry-After is longer than maxRetryDelayMs', async () => {
    const { events, retry } = retrying({ retries: 3 });
    const { client, server } = await api((_, response) => json(response, 429, { errors: [{ reason: 'Too many requests' }] }, { 'retry-after': '3600' }), { retry });
    const { error } = await getVolume(client);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
    expect(events).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('a body that never ends', () => {
  it('is cut by the timeout, which also covers reading the body', async () => {
    const { client } = await api((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id": 1,');
    }, { timeoutMs: 300 });
    const started = performance.now();
    await expect(getVolume(client)).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
