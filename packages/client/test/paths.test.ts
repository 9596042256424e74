// Path parameters can never change the path: every path template of the bundle, called through
// the typed client with hostile values in every parameter, reaches a real server on 127.0.0.1 as
// exactly that template, one segment per parameter, holding the value. The values no URL can carry
// as one segment ("", ".", "..") are refused before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type CloudApiClient } from '../src/index.js';
import { json, loadBundle, startServer, type LocalServer } from './helpers.js';

const bundle = loadBundle();
const METHODS = ['get', 'put', 'post', 'delete'] as const;

/** Every path template of the bundle that has parameters, with one method it answers. */
const templates = Object.entries(bundle.paths as Record<string, Record<string, unknown>>)
  .filter(([template]) => template.includes('{'))
  .map(([template, item]) => ({ template, method: METHODS.find((m) => m in item)!.toUpperCase() as Uppercase<(typeof METHODS)[number]> }));
const parameterNames = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/** Values that would move, cut or end the path if they were not encoded. */
const SENT = ['/', '%', '?', '#', 'ü日本語🙂', '../x', 'a/../..', '%2e%2e', '%2F', '.hidden', '...', 'a b', '\\', ';x=1', '{label}'];
/** Values no URL can carry as one segment. */
const REFUSED = ['..', '.', ''];

let server: LocalServer;
let client: CloudApiClient;
beforeAll(async () => {
  server = await startServer((_, response) => json(response, 200, {}));
  client = createClient({ baseUrl: `${server.url}/v4`, token: 't', retry: false });
});
afterAll(() => server?.close());

type AnyCall = (path: string, init: object) => Promise<{ error?: unknown; response: Response }>;
/** Calls the template with `value` in every parameter, naming the template in a header. */
const call = (method: string, template: string, value: string) => {
  const path = Object.fromEntries(parameterNames(template).map((name) => [name, value]));
  const body = method === 'POST' || method === 'PUT' ? { body: {} } : {};
  return (client as unknown as Record<string, AnyCall>)[method]!(template, { params: { path }, headers: { 'x-template': template }, ...body });
};

describe('path parameters in every template of the bundle', () => {
  it('has templates with one and with several parameters to try', () => {
    expect(templates.length).toBeGreaterThan(10);
    expect(templates.some(({ template }) => parameterNames(template).length > 1)).toBe(true);
  });

  it.each(SENT)('%j reaches the server as one segment per parameter, in the right template', async (value) => {
    const before = server.requests.length;
    const results = await Promise.all(templates.map(({ template, method }) => call(method, template, value)));
    results.forEach(({ error }, i) => expect(error, `${templates[i]!.method} ${templates[i]!.template}`).toBeUndefined());
    const received = server.requests.slice(before);
    expect(received).toHaveLength(templates.length);
    for (const { template, method } of templates) {
      const sent = received.find((r) => r.headers['x-template'] === template)!;
      expect(sent.method).toBe(method);
      // The raw request target: `/v4` then the template's segments, each parameter one segment.
      const segments = sent.raw.split('/').slice(2);
      const expected = template.split('/').slice(1);
      expect(segments, `${method} ${template} sent ${sent.raw}`).toHaveLength(expected.length);
      expected.forEach((part, i) => {
        expect(part.startsWith('{') ? decodeURIComponent(segments[i]!) : segments[i], `${method} ${template} segment ${i + 1} of ${sent.raw}`).toBe(part.startsWith('{') ? value : part);
      });
      expect(sent.raw).not.toMatch(/[?#]/);
    }
  });

  it.each(REFUSED)('%j is refused with a TypeError naming the parameter, and nothing is sent', async (value) => {
    const before = server.requests.length;
    for (const { template, method } of templates) {
      const [first] = parameterNames(template);
      await expect(call(method, template, value), `${method} ${template}`).rejects.toThrow(new TypeError(`path parameter ${first} = ${JSON.stringify(value)} is not one path segment`));
    }
    expect(server.requests.length).toBe(before);
  });

  it('refuses them because URLs resolve dot segments even when percent-encoded', () => {
    // If this ever changes, "%2E%2E" could be sent instead of refusing "..".
    for (const segment of ['..', '%2E%2E', '%2e.', '.%2E']) expect(new Request(`http://127.0.0.1/v4/tags/${segment}`).url).toBe('http://127.0.0.1/v4/');
    expect(new Request('http://127.0.0.1/v4/tags/%2E').url).toBe('http://127.0.0.1/v4/tags/');
  });

  it('refuses a missing parameter and text that is not well-formed Unicode, sending nothing', async () => {
    const before = server.requests.length;
    await expect(client.GET('/volumes/{volumeId}', { params: { path: {} } } as never)).rejects.toThrow(new TypeError('path parameter volumeId is missing: pass params.path.volumeId'));
    await expect(client.GET('/volumes/{volumeId}', {} as never)).rejects.toThrow('path parameter volumeId is missing: pass params.path.volumeId');
    // A list walked from JavaScript, where the types cannot say it: the same message, nothing sent.
    await expect(client.listAll('/tags/{label}', {} as never)).rejects.toThrow('path parameter label is missing: pass params.path.label');
    await expect(client.DELETE('/tags/{label}', { params: { path: { label: 'a\uD800b' } } })).rejects.toThrow(TypeError);
    expect(server.requests.length).toBe(before);
  });

  it('sends numbers and the image ids of the spec as they are, a slash encoded', async () => {
    await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 12345 } } });
    await client.GET('/images/{imageId}', { params: { path: { imageId: 'private/15' } } });
    expect(server.requests.slice(-2).map((r) => r.raw)).toEqual(['/v4/volumes/12345', '/v4/images/private%2F15']);
  });
});
