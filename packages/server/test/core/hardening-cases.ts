// The hardening suite's cases (test/core/hardening.test.ts): each writes raw bytes on one new
// connection and may check the answers beyond the suite's common checks (alive, no 5xx, 4xx as
// ErrorResponse, no leak).
import { expect } from 'vitest';
import type { RawExchange, RawOptions } from '../support/raw-http.js';

export interface CaseWorld {
  host: string;
  token: string;
  ticketId: number;
  volumeId: number;
}

export interface HardeningCase {
  name: string;
  request(world: CaseWorld): { chunks: (string | Buffer)[]; options?: RawOptions };
  check?(exchange: RawExchange, world: CaseWorld): void;
}

/** One request: request line, headers (Host and the token first unless `bare`), body. */
export function http(world: CaseWorld, method: string, target: string, headers: string[] = [], body: string | Buffer = '', bare = false): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, ...(bare ? [] : [`Host: ${world.host}`, `Authorization: Bearer ${world.token}`]), ...headers];
  const withLength = body.length && !headers.some((h) => /^(content-length|transfer-encoding):/i.test(h)) ? [...lines, `Content-Length: ${Buffer.byteLength(body)}`] : lines;
  return Buffer.concat([Buffer.from(`${withLength.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body)]);
}

const expectStatus = (status: number, pattern?: RegExp) => (exchange: RawExchange) => {
  expect(exchange.answers.map((a) => a.status), JSON.stringify(exchange.answers)).toEqual([status]);
  if (pattern) expect(exchange.answers[0]!.body).toMatch(pattern);
};

// ---- Multipart attachments -------------------------------------------------------------------

const BOUNDARY = 'hardening-boundary';
const filePart = (name = 'file', filename = 'a.txt', content = 'hello') =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`;
const multipart = (world: CaseWorld, body: string, ticketId = world.ticketId, extra: string[] = []) =>
  http(world, 'POST', `/v4/support/tickets/${ticketId}/attachments`, [`Content-Type: multipart/form-data; boundary=${BOUNDARY}`, ...extra], body);

function chunked(body: string): string {
  return `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
}

const multipartCases: HardeningCase[] = [
  {
    name: 'multipart: no closing boundary (the file part breaks off) is a 400 naming the body',
    request: (w) => ({ chunks: [multipart(w, filePart())] }),
    check: expectStatus(400, /multipart body/),
  },
  {
    name: 'multipart: no closing boundary, the file under another part name',
    request: (w) => ({ chunks: [multipart(w, filePart('document'))] }),
    check: expectStatus(400, /multipart body/),
  },
  {
    name: 'multipart: no closing boundary, chunked',
    request: (w) => ({ chunks: [multipart(w, chunked(filePart()), w.ticketId, ['Transfer-Encoding: chunked'])] }),
    check: expectStatus(400, /multipart body/),
  },
  {
    name: 'multipart: no closing boundary, for a ticket that does not exist (404: the body is not read)',
    request: (w) => ({ chunks: [multipart(w, filePart(), 99_999_999)] }),
    check: expectStatus(404, /does not exist/),
  },
  {
    name: 'multipart: part headers cut off',
    request: (w) => ({ chunks: [multipart(w, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filen`)] }),
    check: expectStatus(400),
  },
  {
    name: 'multipart: a complete form is taken (200)',
    request: (w) => ({ chunks: [multipart(w, `${filePart()}--${BOUNDARY}--\r\n`)] }),
    check: expectStatus(200),
  },
];

// ---- Numbers that are not finite ----------------------------------------------------------------

const nonFinite: HardeningCase[] = [
  ...['page=Infinity', 'page=-Infinity', 'page=1e400', 'page_size=Infinity', 'page=NaN'].map((query): HardeningCase => ({
    name: `a list with ${query} is a 400 naming the parameter`,
    request: (w) => ({ chunks: [http(w, 'GET', `/v4/volumes?${query}`)] }),
    check: expectStatus(400, new RegExp(query.split('=')[0]!)),
  })),
  {
    name: 'a path integer 1e400 is a 400 (not 2020-Infinity)',
    request: (w) => ({ chunks: [http(w, 'GET', '/v4/compute/instances/1/stats/2020/1e400')] }),
    check: expectStatus(400, /month/),
  },
  {
    name: 'a body integer 1e400 is a 400 naming the field',
    request: (w) => ({ chunks: [http(w, 'POST', '/v4/volumes', ['Content-Type: application/json'], '{"label":"inf","region":"us-east","size":1e400}')] }),
    check: expectStatus(400, /size/),
  },
];

// ---- Long arrays: refused by maxItems, quickly, never past an engine's limits ------------------

const json = (world: CaseWorld, method: string, target: string, body: unknown) => http(world, method, target, ['Content-Type: application/json'], JSON.stringify(body));
const ids = (count: number) => Array.from({ length: count }, (_, i) => i + 1);
const labels = (count: number, width = 8) => Array.from({ length: count }, (_, i) => `t${String(i).padStart(width, '0')}`);
const service = { label: 'long-credentials', service_type: 'url', address: 'https://example.org/health', timeout: 30 };

const longArrays: HardeningCase[] = [
  ...['computes', 'domains', 'balancers', 'volumes'].map((field): HardeningCase => ({
    name: `a tag with 32,767 ${field} is a 400 naming ${field}`,
    request: (w) => ({ chunks: [json(w, 'POST', '/v4/tags', { label: `long-${field}`, [field]: ids(32_767) })] }),
    check: expectStatus(400, new RegExp(`"field":"${field}"`)),
  })),
  {
    name: 'a managed service with 32,767 credentials is a 400 naming credentials',
    request: (w) => ({ chunks: [json(w, 'POST', '/v4/managed/services', { ...service, credentials: ids(32_767) })] }),
    check: expectStatus(400, /"field":"credentials"/),
  },
  {
    name: 'a volume with 16,384 distinct tags is a 400 naming tags',
    request: (w) => ({ chunks: [json(w, 'POST', '/v4/volumes', { label: 'long-tags', region: 'us-east', tags: labels(16_384) })] }),
    check: expectStatus(400, /"field":"tags"/),
  },
  {
    name: 'a volume with 80,000 distinct tags (880 KB, under the body limit) is a 400 naming tags, at once',
    request: (w) => ({ chunks: [json(w, 'POST', '/v4/volumes', { label: 'long-tags', region: 'us-east', tags: labels(80_000, 7) })], options: { timeoutMs: 2000 } }),
    check: expectStatus(400, /"field":"tags"/),
  },
  {
    name: 'a volume with 101 tags is a 400; 100 tags (the bound) are taken',
    request: (w) => ({ chunks: [json(w, 'POST', '/v4/volumes', { label: 'tags-101', region: 'us-east', tags: labels(101) }), json(w, 'POST', '/v4/volumes', { label: 'tags-100', region: 'us-east', tags: labels(100, 46) })], options: { answers: 2 } }),
    check: (exchange) => {
      expect(exchange.answers.map((a) => a.status)).toEqual([400, 200]);
      expect(JSON.parse(exchange.answers[1]!.body).tags).toHaveLength(100);
    },
  },
  {
    name: 'a volume with a repeated tag is a 400 naming the repeat',
    request: (w) => ({ chunks: [json(w, 'POST', '/v4/volumes', { label: 'tags-twice', region: 'us-east', tags: [...labels(50), 't00000007'] })] }),
    check: expectStatus(400, /items 50 and 7 are the same|items 7 and 50 are the same/),
  },
];

// ---- What Node would answer on its own, HEAD and OPTIONS, pipelining ---------------------------

const statuses = (exchange: RawExchange) => exchange.answers.map((a) => a.status);

const protocol: HardeningCase[] = [
  {
    name: 'a request without Host is a 400 ErrorResponse',
    request: (w) => ({ chunks: [http(w, 'GET', '/v4/regions', [], '', true)] }),
    check: expectStatus(400, /Host/),
  },
  {
    name: 'two Host headers are a 400 ErrorResponse',
    request: (w) => ({ chunks: [http(w, 'GET', '/v4/regions', [`Host: ${w.host}`])] }),
    check: expectStatus(400, /one Host header/),
  },
  {
    name: 'an HTTP/1.0 request without Host is served',
    request: () => ({ chunks: ['GET /v4/regions HTTP/1.0\r\n\r\n'] }),
    check: expectStatus(200),
  },
  {
    name: 'Expect: something-else is ignored (Node answered 417 with no body)',
    request: (w) => ({ chunks: [http(w, 'GET', '/v4/regions', ['Expect: something-else'])] }),
    check: expectStatus(200),
  },
  {
    name: 'HEAD on a GET path answers the GET\'s status and headers without a body',
    request: (w) => ({ chunks: [http(w, 'HEAD', `/v4/volumes/${w.volumeId}`)], options: { bodiless: true } }),
    check: (exchange) => {
      expect(statuses(exchange)).toEqual([200]);
      expect(exchange.answers[0]!.headers['content-type']).toMatch(/application\/json/);
      expect(exchange.rest).toBe('');
    },
  },
  {
    name: 'HEAD keeps the GET\'s rules: no token is a 401',
    request: (w) => ({ chunks: [http(w, 'HEAD', `/v4/volumes/${w.volumeId}`, [`Host: ${w.host}`], '', true)], options: { bodiless: true } }),
    check: (exchange) => expect(statuses(exchange)).toEqual([401]),
  },
  {
    name: 'OPTIONS on an operation\'s path is a 204 with Allow',
    request: (w) => ({ chunks: [http(w, 'OPTIONS', `/v4/volumes/${w.volumeId}`, [`Host: ${w.host}`], '', true)] }),
    check: (exchange) => {
      expect(statuses(exchange)).toEqual([204]);
      expect(exchange.answers[0]!.headers.allow).toBe('DELETE, GET, HEAD, OPTIONS, PUT');
    },
  },
  {
    name: 'OPTIONS on no operation\'s path is a 404',
    request: (w) => ({ chunks: [http(w, 'OPTIONS', '/v4/nothing-here')] }),
    check: expectStatus(404),
  },
  {
    name: 'a GET pipelined after the POST that creates its object finds it (answered in order)',
    request: (w) => ({
      chunks: [Buffer.concat([
        json(w, 'POST', '/v4/tags', { label: 'pipelined-tag' }),
        http(w, 'GET', '/v4/tags/pipelined-tag'),
        http(w, 'DELETE', '/v4/tags/pipelined-tag'),
        http(w, 'GET', '/v4/tags/pipelined-tag'),
      ])],
      options: { answers: 4 },
    }),
    check: (exchange) => expect(statuses(exchange)).toEqual([200, 200, 200, 404]),
  },
  {
    name: 'a create pipelined before garbage gets its own answer before the 400',
    request: (w) => ({ chunks: [Buffer.concat([json(w, 'POST', '/v4/tags', { label: 'before-garbage' }), Buffer.from('GARBAGE \x00\x01 HTTP/9\r\n\r\n')])], options: { answers: 2 } }),
    check: (exchange) => {
      expect(statuses(exchange)).toEqual([200, 400]);
      expect(JSON.parse(exchange.answers[0]!.body)).toEqual({ label: 'before-garbage' });
    },
  },
];

export const hardeningCases: HardeningCase[] = [...multipartCases, ...nonFinite, ...longArrays, ...protocol];
