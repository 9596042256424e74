// What the mock's tests read from the spec's bundle: valid requests built from its examples, the
// success response of each operation, and a check that a body is the spec's ErrorResponse.
import http from 'node:http';
import { loadBundle } from '@cloudapi/spec/bundle';
import { createSchemaViews } from '@cloudapi/spec/schema-views';
import { bodiesOf, mediaExamples, parameterExamples } from '@cloudapi/spec/walk';

export const bundle = loadBundle();
export const views = createSchemaViews(bundle);
export const auth = { authorization: 'Bearer mock-token' };

/** A valid request for an operation, from the examples of its parameters and body. */
export function requestFor(op, baseUrl) {
  let path = op.path;
  const query = new URLSearchParams();
  for (const p of op.parameters) {
    const value = parameterExamples(bundle, p)[0];
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    else if (p.in === 'query' && p.required) query.set(p.name, value);
  }
  const init = { method: op.method.toUpperCase(), headers: { ...auth } };
  const request = bodiesOf(bundle, op).find((b) => b.kind === 'request');
  if (request) {
    const value = mediaExamples(bundle, request.media)[0].value;
    if (request.mediaType === 'multipart/form-data') {
      const form = new FormData();
      for (const [name, part] of Object.entries(value)) form.append(name, new Blob([String(part)]), `${name}.txt`);
      init.body = form;
    } else {
      init.headers['content-type'] = request.mediaType;
      init.body = JSON.stringify(value);
    }
  }
  return { url: `${baseUrl}${path}${query.size ? `?${query}` : ''}`, init };
}

/**
 * Sends a request of requestFor() with node:http on a keep-alive agent of the caller's: a third of
 * the CPU fetch takes, for a test that sends a thousand and more. Resolves with the status and the
 * body's text.
 * @param {http.Agent} agent
 */
export async function send(agent, { url, init }) {
  let { body, headers } = init;
  if (body instanceof FormData) {
    // The form as fetch would encode it, boundary and all.
    const encoded = new Request(url, { method: init.method, body });
    headers = { ...headers, 'content-type': encoded.headers.get('content-type') };
    body = Buffer.from(await encoded.arrayBuffer());
  }
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method, headers, agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The status and schema pointer of an operation's success response. */
export function successOf(op) {
  const status = Object.keys(op.operation.responses).find((code) => /^2/.test(code));
  const body = bodiesOf(bundle, op).find((b) => b.kind === 'response' && b.status === status);
  return { status: Number(status), schemaPointer: body?.schemaPointer };
}

/** Problems with a body that should be an ErrorResponse: [] when it is one. */
export function errorResponseProblems(body) {
  const result = views.validate('response', '#/components/schemas/ErrorResponse', body);
  return [...result.errors.map((e) => e.message), ...views.undeclared('response', '#/components/schemas/ErrorResponse', body).map((p) => `undeclared ${p}`)];
}
