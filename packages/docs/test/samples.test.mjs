// The code samples: run, not read. Every curl sample of the bundle is executed by bash against a
// stand-in `curl` that reports its arguments, and every client sample is executed against a
// stand-in client that records the call; both must send what the operation's examples say.
// A small document fixes the call shapes agreed with @cloudapi/client and the edge cases the
// growing spec will bring (multipart, string ids with a slash, public and optional-auth calls).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { loadBundle } from '@cloudapi/spec/bundle';
import { bodiesOf, deref, mediaExamples, operations } from '@cloudapi/spec/walk';
import { authOf, clientSample, codeSamples, curlSample, jsLiteral, shellQuote } from '../src/samples.mjs';

const require = createRequire(import.meta.url);
const bundle = loadBundle();
const AsyncFunction = (async () => {}).constructor;

/** Runs curl samples in bash with `curl` replaced by a function that prints its arguments. */
function runCurl(samples) {
  const script = ['curl() { printf \'%s\\0\' "$@"; printf \'\\036\'; }', 'CLOUDAPI_TOKEN=secret-token',
    ...samples].join('\n');
  const result = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\x1e').slice(0, -1).map((record) => parseCurl(record.split('\0').slice(0, -1)));
}

function parseCurl(args) {
  const call = { method: 'GET', url: null, headers: {}, data: null, form: [], other: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '-X') call.method = args[++i];
    else if (arg === '-H') { const [name, ...rest] = args[++i].split(':'); call.headers[name.toLowerCase()] = rest.join(':').trim(); }
    else if (arg === '--data') call.data = args[++i];
    else if (arg === '-F') call.form.push(args[++i]);
    else if (/^https?:/.test(arg)) call.url = arg;
    else call.other.push(arg);
  }
  return call;
}

/** Runs a client sample against a stand-in client; returns [createClient options, call]. */
async function runClient(source) {
  const calls = [];
  const createClient = (options) => {
    calls.push(options);
    return new Proxy({}, { get: (target, method) => async (path, init) => { calls.push({ method, path, init }); return { data: {}, error: undefined }; } });
  };
  const imports = source.split('\n').filter((line) => line.startsWith('import '));
  expect(imports).toContain('import { createClient } from "@cloudapi/client";');
  const body = source.split('\n').filter((line) => !line.startsWith('import ')).join('\n');
  const readFile = async (file) => Buffer.from(`contents of ${file}`);
  await new AsyncFunction('createClient', 'process', 'readFile', body)(createClient, { env: { CLOUDAPI_TOKEN: 'secret-token' } }, readFile);
  expect(calls).toHaveLength(2);
  return calls;
}

// What a sample must send, worked out here from the document, not from src/samples.mjs.
function expectations(document, op) {
  const value = (p) => (p.example !== undefined ? p.example : deref(document, Object.values(p.examples)[0])[0].value);
  const requirements = op.operation.security ?? document.security ?? [];
  const request = bodiesOf(document, op).find((b) => b.kind === 'request');
  return {
    pathValues: Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, value(p)])),
    secured: requirements.some((r) => Object.keys(r).length > 0),
    body: request ? { mediaType: request.mediaType, value: mediaExamples(document, request.media)[0]?.value } : null,
    server: document.servers[0].url,
  };
}

describe('samples of every operation of the bundle', () => {
  const all = [...operations(bundle)];

  it('has operations to check', () => {
    expect(all.length).toBeGreaterThan(0);
  });

  it('curl sends the method, the percent-encoded path values, the token only when secured, and the example body', () => {
    const calls = runCurl(all.map((op) => curlSample(bundle, op)));
    expect(calls).toHaveLength(all.length);
    for (const [i, op] of all.entries()) {
      const where = `${op.method.toUpperCase()} ${op.path}`;
      const call = calls[i];
      const expected = expectations(bundle, op);
      expect(call.method, where).toBe(op.method.toUpperCase());
      expect(call.other, where).toEqual([]);
      const url = new URL(call.url);
      expect(`${url.origin}${url.pathname}`.startsWith(expected.server), where).toBe(true);
      const template = op.path.split('/');
      const sent = url.pathname.slice(new URL(expected.server).pathname.length).split('/');
      expect(sent.length, where).toBe(template.length);
      template.forEach((segment, k) => {
        const name = /^\{(.+)\}$/.exec(segment)?.[1];
        if (name) expect(decodeURIComponent(sent[k]), `${where} {${name}}`).toBe(String(expected.pathValues[name]));
        else expect(sent[k], where).toBe(segment);
      });
      expect(call.headers.authorization, where).toBe(expected.secured ? 'Bearer secret-token' : undefined);
      if (expected.body?.mediaType === 'application/json') {
        expect(call.headers['content-type'], where).toBe('application/json');
        expect(JSON.parse(call.data), where).toEqual(expected.body.value);
      } else if (!expected.body) {
        expect(call.data, where).toBeNull();
      }
    }
  });

  it('@cloudapi/client calls the method and path template with the example values and body', async () => {
    for (const op of all) {
      const where = `${op.method.toUpperCase()} ${op.path}`;
      const expected = expectations(bundle, op);
      const [options, call] = await runClient(clientSample(bundle, op));
      expect(options.baseUrl, where).toBe(expected.server);
      expect(options.token, where).toBe(expected.secured ? 'secret-token' : undefined);
      expect(call.method, where).toBe(op.method.toUpperCase());
      expect(call.path, where).toBe(op.path);
      expect(call.init?.params?.path ?? {}, where).toEqual(expected.pathValues);
      if (expected.body?.mediaType === 'application/json') expect(call.init.body, where).toEqual(expected.body.value);
      else if (!expected.body) expect(call.init?.body, where).toBeUndefined();
    }
  });

  it('are Redoc x-codeSamples: curl, then @cloudapi/client', () => {
    const [op] = all;
    expect(codeSamples(bundle, op).map((s) => [s.lang, s.label])).toEqual([['bash', 'curl'], ['javascript', '@cloudapi/client']]);
  });
});

// A small document with the shapes agreed with the client's authors and the cases to come.
const shared = {
  responses: { 200: { description: 'OK' } },
};
const fixture = {
  openapi: '3.1.0',
  info: { title: 'Fixture', version: '1' },
  servers: [{ url: 'https://api.cloud.example/v4' }],
  paths: {
    '/volumes': {
      post: {
        security: [{ personalAccessToken: ['volumes:read_write'] }, { oauth: ['volumes:read_write'] }],
        requestBody: { content: { 'application/json': { schema: { type: 'object' }, examples: { simple: { value: { label: 'my-volume', region: 'us-east' } } } } } },
        ...shared,
      },
    },
    '/volumes/{volumeId}': {
      parameters: [{ $ref: '#/components/parameters/VolumeId' }],
      get: { security: [{ personalAccessToken: ['volumes:read_only'] }], ...shared },
    },
    '/images/{imageId}': {
      get: {
        parameters: [{ $ref: '#/components/parameters/ImageId' }],
        security: [{ personalAccessToken: ['images:read_only'] }, {}],
        ...shared,
      },
    },
    '/regions': {
      get: { security: [], parameters: [{ name: 'page', in: 'query', schema: { type: 'integer' }, example: 2 }, { name: 'order', in: 'query', schema: { type: 'string' } }], ...shared },
    },
    '/support/tickets/{ticketId}/attachments': {
      post: {
        parameters: [{ name: 'ticketId', in: 'path', required: true, schema: { type: 'integer', examples: [11223344] } }],
        security: [{ personalAccessToken: ['account:read_write'] }],
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: { type: 'object', properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' }, note: { type: 'string' } } },
              examples: { screenshot: { summary: "Attach a screenshot", value: { file: 'screenshot.png', note: "it's broken" } } },
            },
          },
        },
        ...shared,
      },
    },
    '/things/{name}': {
      put: {
        parameters: [
          { name: 'name', in: 'path', required: true, schema: { type: 'string', enum: ['a b', 'c'] } },
          { name: 'X-Request-Id', in: 'header', required: true, schema: { type: 'string' }, example: 'abc' },
        ],
        requestBody: { content: { 'application/json': { schema: { type: 'object' }, examples: { quote: { value: { text: "it's" } } } } } },
        ...shared,
      },
    },
  },
  security: [{ personalAccessToken: [] }],
  components: {
    parameters: {
      VolumeId: { name: 'volumeId', in: 'path', required: true, schema: { type: 'integer' }, example: 12345 },
      ImageId: { name: 'imageId', in: 'path', required: true, schema: { type: 'string' }, examples: { private: { value: 'private/15' }, public: { value: 'compute/debian11' } } },
    },
  },
};
const byPath = Object.fromEntries([...operations(fixture)].map((op) => [`${op.method} ${op.path}`, op]));
const lastLine = (text) => text.split('\n').at(-1);

describe('samples of the agreed call shapes and edge cases', () => {
  it('creates the client with the base URL and the token, as agreed with @cloudapi/client', () => {
    const source = clientSample(fixture, byPath['post /volumes']);
    expect(source).toBe([
      'import { createClient } from "@cloudapi/client";',
      '',
      'const client = createClient({ baseUrl: "https://api.cloud.example/v4", token: process.env.CLOUDAPI_TOKEN });',
      'const { data, error } = await client.POST("/volumes", { body: { label: "my-volume", region: "us-east" } });',
    ].join('\n'));
  });

  it('passes path values unencoded to the client, which encodes them, and percent-encodes them in curl', () => {
    expect(lastLine(clientSample(fixture, byPath['get /volumes/{volumeId}'])))
      .toBe('const { data, error } = await client.GET("/volumes/{volumeId}", { params: { path: { volumeId: 12345 } } });');
    expect(lastLine(clientSample(fixture, byPath['get /images/{imageId}'])))
      .toBe('const { data, error } = await client.GET("/images/{imageId}", { params: { path: { imageId: "private/15" } } });');
    expect(curlSample(fixture, byPath['get /images/{imageId}'])).toContain("curl 'https://api.cloud.example/v4/images/private%2F15'");
    expect(curlSample(fixture, byPath['put /things/{name}'])).toContain("'https://api.cloud.example/v4/things/a%20b'");
  });

  it('sends no token for public operations, and says so when the token is optional', () => {
    const op = byPath['get /regions'];
    expect(authOf(fixture, op)).toBe('none');
    expect(curlSample(fixture, op)).toBe("curl 'https://api.cloud.example/v4/regions?page=2'");
    expect(clientSample(fixture, op)).toContain('createClient({ baseUrl: "https://api.cloud.example/v4" });');
    expect(lastLine(clientSample(fixture, op))).toBe('const { data, error } = await client.GET("/regions", { params: { query: { page: 2 } } });');
    const optional = byPath['get /images/{imageId}'];
    expect(authOf(fixture, optional)).toBe('optional');
    expect(curlSample(fixture, optional)).toMatch(/^# The token is optional/);
    expect(curlSample(fixture, optional)).toContain('-H "Authorization: Bearer $CLOUDAPI_TOKEN"');
  });

  it('falls back to the document-level security when an operation states none', () => {
    expect(authOf(fixture, byPath['put /things/{name}'])).toBe('required');
    expect(authOf({ ...fixture, security: undefined }, byPath['put /things/{name}'])).toBe('none');
  });

  it('uploads multipart files with -F name=@file and FormData', async () => {
    const op = byPath['post /support/tickets/{ticketId}/attachments'];
    const curl = curlSample(fixture, op);
    const [call] = runCurl([curl]);
    expect(call.form).toEqual(['file=@screenshot.png', "note=it's broken"]);
    expect(call.headers['content-type']).toBeUndefined();
    expect(call.url).toBe('https://api.cloud.example/v4/support/tickets/11223344/attachments');
    expect(curl.split('\n')[0]).toBe('# Attach a screenshot');

    const source = clientSample(fixture, op);
    expect(source).toContain('import { readFile } from "node:fs/promises";');
    const [, sent] = await runClient(source);
    expect(sent.init.params.path).toEqual({ ticketId: 11223344 });
    expect(sent.init.body).toBeInstanceOf(FormData);
    expect(sent.init.body.get('note')).toBe("it's broken");
    expect(sent.init.body.get('file').name).toBe('screenshot.png');
    expect(await sent.init.body.get('file').text()).toBe('contents of screenshot.png');
  });

  it('sends header parameters and survives quotes in bodies', () => {
    const [call] = runCurl([curlSample(fixture, byPath['put /things/{name}'])]);
    expect(call.method).toBe('PUT');
    expect(call.headers['x-request-id']).toBe('abc');
    expect(JSON.parse(call.data)).toEqual({ text: "it's" });
  });

  it('prints literals on one line when they fit and breaks them otherwise', () => {
    expect(jsLiteral({ a: 1, 'b-c': [true, null] })).toBe('{ a: 1, "b-c": [true, null] }');
    expect(jsLiteral({ long: 'x'.repeat(30), other: { deep: 'y'.repeat(30) } }, '', 40))
      .toBe(`{\n  long: "${'x'.repeat(30)}",\n  other: { deep: "${'y'.repeat(30)}" },\n}`);
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });
});
