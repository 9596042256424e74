// What the mock's tests read from the spec's bundle: valid requests built from its examples, the
// success response of each operation, and a check that a body is the spec's ErrorResponse.
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
