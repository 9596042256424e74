// Walks a bundled OpenAPI document: its operations (with path-level parameters merged in and
// shared components resolved) and the examples of every body, parameter and schema, each with
// the JSON pointer of the schema it must validate against. Shared by the spec's tests, the
// contract kit and the docs' code samples.
import { appendPointer, formatPointer, resolvePointer } from './json-pointer.mjs';

/**
 * One parameter of an operation, resolved, with the JSON pointer where it is defined.
 * @typedef {{ name: string, in: 'path' | 'query' | 'header' | 'cookie', required?: boolean, schema?: any, example?: unknown, examples?: Record<string, any>, pointer: string, [key: string]: any }} WalkedParameter
 */
/**
 * One operation: its path template, method, the operation object and every parameter (path-level ones merged in).
 * @typedef {{ path: string, method: 'get' | 'put' | 'post' | 'delete' | 'patch', operation: Record<string, any>, pointer: string, parameters: WalkedParameter[] }} WalkedOperation
 */
/**
 * A request or response body of one media type, with the pointer of its schema.
 * @typedef {{ kind: 'request' | 'response', status: string | null, mediaType: string, media: Record<string, any>, schemaPointer: string }} WalkedBody
 */

/** @type {Array<'get' | 'put' | 'post' | 'delete' | 'patch'>} */
export const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * Follows `$ref`s to components; returns [node, pointer of node].
 * @param {any} document @param {any} node @param {string} [pointer]
 * @returns {[any, string]}
 */
export function deref(document, node, pointer) {
  let current = node;
  let at = pointer;
  for (let i = 0; current && typeof current.$ref === 'string' && i < 16; i++) {
    at = current.$ref;
    current = resolvePointer(document, current.$ref);
  }
  return [current, at];
}

/**
 * Every operation of the document, in path order.
 * @param {any} document
 * @returns {Generator<WalkedOperation>}
 */
export function* operations(document) {
  for (const [path, pathItem] of Object.entries(document.paths || {})) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      const byKey = new Map();
      for (const [list, base] of [[pathItem.parameters, formatPointer(['paths', path, 'parameters'], { fragment: true })], [operation.parameters, formatPointer(['paths', path, method, 'parameters'], { fragment: true })]]) {
        (list || []).forEach((raw, i) => {
          const [parameter, at] = deref(document, raw, appendPointer(base, i));
          byKey.set(`${parameter.in}:${parameter.name}`, { ...parameter, pointer: at });
        });
      }
      yield { path, method, operation, pointer: formatPointer(['paths', path, method], { fragment: true }), parameters: [...byKey.values()] };
    }
  }
}

/**
 * Example values of a parameter, best first: its `example`, its named `examples`, then its
 * schema's `examples`, `example`, `default`, `const` and first `enum` value. Empty when the spec
 * gives none; callers add their own fallback.
 * @param {any} document @param {WalkedParameter} parameter
 * @returns {unknown[]}
 */
export function parameterExamples(document, parameter) {
  const values = parameter.example !== undefined ? [parameter.example] : [];
  for (const raw of Object.values(parameter.examples || {})) {
    const [example] = deref(document, raw);
    if (example && example.value !== undefined) values.push(example.value);
  }
  const [schema] = deref(document, parameter.schema);
  if (schema && typeof schema === 'object') {
    for (const candidate of [...(Array.isArray(schema.examples) ? schema.examples : []), schema.example, schema.default, schema.const, Array.isArray(schema.enum) ? schema.enum[0] : undefined]) {
      if (candidate !== undefined) values.push(candidate);
    }
  }
  return values;
}

/**
 * Named examples of a media type object: [{ name, value, summary }].
 * @param {any} document @param {any} media
 * @returns {Array<{ name: string, value: any, summary?: string }>}
 */
export function mediaExamples(document, media) {
  const named = Object.entries(media.examples || {}).map(([name, raw]) => {
    const [example] = deref(document, raw);
    return { name, value: example.value, summary: example.summary };
  });
  if (media.example !== undefined) named.push({ name: 'example', value: media.example });
  return named;
}

/**
 * Request and response bodies of one operation, each with the pointer of its schema.
 * @param {any} document @param {WalkedOperation} op
 * @returns {WalkedBody[]}
 */
export function bodiesOf(document, op) {
  const bodies = [];
  if (op.operation.requestBody) {
    const [body, at] = deref(document, op.operation.requestBody, appendPointer(op.pointer, 'requestBody'));
    for (const [mediaType, media] of Object.entries(body.content || {})) {
      bodies.push({ kind: 'request', status: null, mediaType, media, schemaPointer: appendPointer(at, 'content', mediaType, 'schema') });
    }
  }
  for (const [status, raw] of Object.entries(op.operation.responses || {})) {
    const [response, at] = deref(document, raw, appendPointer(op.pointer, 'responses', status));
    for (const [mediaType, media] of Object.entries(response.content || {})) {
      bodies.push({ kind: 'response', status, mediaType, media, schemaPointer: appendPointer(at, 'content', mediaType, 'schema') });
    }
  }
  return bodies;
}

/** Every example in the document with what it must validate against. */
export function* allExamples(document) {
  for (const op of operations(document)) {
    const where = `${op.method.toUpperCase()} ${op.path}`;
    for (const body of bodiesOf(document, op)) {
      for (const example of mediaExamples(document, body.media)) {
        yield {
          where: `${where} ${body.kind === 'request' ? 'request body' : `response ${body.status}`} (${body.mediaType}) example "${example.name}"`,
          view: body.kind, schemaPointer: body.schemaPointer, value: example.value,
        };
      }
    }
    for (const parameter of op.parameters) {
      const values = [
        ...(parameter.example !== undefined ? [['example', parameter.example]] : []),
        ...Object.entries(parameter.examples || {}).map(([name, raw]) => [name, deref(document, raw)[0].value]),
      ];
      for (const [name, value] of values) {
        yield { where: `${where} parameter "${parameter.name}" example "${name}"`, view: 'request', schemaPointer: `${parameter.pointer}/schema`, value };
      }
    }
  }
  for (const [name, schema] of Object.entries((document.components && document.components.schemas) || {})) {
    for (const [i, value] of (schema.examples || []).entries()) {
      yield { where: `schema ${name} example ${i}`, view: 'response', schemaPointer: formatPointer(['components', 'schemas', name], { fragment: true }), value };
    }
  }
}
