// The routes of the mock document as the front layer needs them: which path template a request
// path matches, the methods it declares (405 and HEAD), and per operation the statuses and named
// examples a `Prefer` header may ask for. Derived from the document on every (re)load.
import { parsePointer, resolvePointer } from '@cloudapi/spec/json-pointer';
import { createSchemaViews } from '@cloudapi/spec/schema-views';
import { bodiesOf, deref, mediaExamples, operations } from '@cloudapi/spec/walk';

/**
 * @typedef {object} Operation
 * @property {string} operationId
 * @property {string} method upper case
 * @property {string} template the path as the document writes it (`/v4/volumes/{volumeId}`)
 * @property {Map<string, Set<string>>} examples status → names of the examples of its response
 * @property {string[]} parameters names of its parameters (path, query, header), as the document spells them
 * @property {string|undefined} jsonBody the pointer of its JSON request body's schema
 */

/** The node at a JSON pointer, following `$ref`s met on the way (Ajv's schema paths go through them). */
function resolveThroughRefs(document, pointer) {
  let node = document;
  for (const key of parsePointer(pointer)) {
    for (let i = 0; node && typeof node.$ref === 'string' && !Object.hasOwn(node, key) && i < 16; i++) node = resolvePointer(document, node.$ref);
    node = resolvePointer(node, [key]);
  }
  return node;
}

function segmentsOf(path) {
  return path.split('/').slice(1);
}

/** A route table for `document`: `match(rawPath)` finds the path item a request addresses. */
export function createRoutes(document) {
  const byTemplate = new Map();
  for (const op of operations(document)) {
    const examples = new Map();
    for (const [status, raw] of Object.entries(op.operation.responses || {})) {
      const [response] = deref(document, raw);
      const names = new Set();
      for (const media of Object.values(response?.content || {})) for (const example of mediaExamples(document, media)) names.add(example.name);
      examples.set(status, names);
    }
    if (!byTemplate.has(op.path)) {
      const segments = segmentsOf(op.path).map((s) => (/^\{.+\}$/.test(s) ? { param: s.slice(1, -1) } : { literal: s }));
      byTemplate.set(op.path, { template: op.path, segments, literals: segments.filter((s) => s.literal !== undefined).length, operations: new Map() });
    }
    const route = byTemplate.get(op.path);
    route.operations.set(op.method.toUpperCase(), {
      operationId: op.operation.operationId ?? `${op.method.toUpperCase()} ${op.path}`,
      method: op.method.toUpperCase(),
      template: op.path,
      examples,
      parameters: op.parameters.map((p) => p.name),
      jsonBody: bodiesOf(document, op).find((b) => b.kind === 'request' && /json/.test(b.mediaType))?.schemaPointer,
    });
  }
  let views = null; // compiled on the first refusal that needs it
  // More literal segments first, so `/volumes/types` wins over `/volumes/{volumeId}`.
  const routes = [...byTemplate.values()].sort((a, b) => b.literals - a.literals);

  return {
    /**
     * The route whose template matches `rawPath` (still percent-encoded), with the raw value of
     * each path parameter, or null.
     * @returns {{template: string, operations: Map<string, Operation>, params: Record<string, string>} | null}
     */
    match(rawPath) {
      const parts = segmentsOf(rawPath);
      for (const route of routes) {
        if (route.segments.length !== parts.length) continue;
        const params = {};
        const ok = route.segments.every((s, i) => {
          if (s.literal !== undefined) return s.literal === parts[i];
          params[s.param] = parts[i];
          return parts[i] !== '';
        });
        if (ok) return { template: route.template, operations: route.operations, params };
      }
      return null;
    },
    size: routes.length,
    /**
     * The fields a `not` rule of the body's schema forbids in `value` (`not: {required: [config_id]}`
     * under an `if`): Prism reports only "must NOT be valid", without the field.
     */
    forbiddenFields(op, value) {
      if (!op.jsonBody) return [];
      views ??= createSchemaViews(document);
      const fields = [];
      for (const error of views.validate('request', op.jsonBody, value).errors) {
        if (error.keyword !== 'not') continue;
        const at = error.path === '/' ? [] : error.path.slice(1).split('/');
        const present = at.reduce((node, key) => node?.[key], value) ?? {};
        for (const name of resolveThroughRefs(document, error.schemaPath)?.required ?? []) if (Object.hasOwn(present, name)) fields.push([...at, name].join('.'));
      }
      return fields;
    },
  };
}

/** The methods a path answers, as an `Allow` header lists them (HEAD wherever GET is). */
export function allowedMethods(route) {
  const methods = [...route.operations.keys()];
  if (methods.includes('GET')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD');
  return methods;
}
