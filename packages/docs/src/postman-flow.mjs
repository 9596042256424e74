// What makes the converted Postman collection run as it is, against the mock or a real server
// (newman, Postman's runner): path values encoded as the spec says (an image id `private/15`
// travels as `private%2F15`), a file for the attachment upload, and the ids that creates answer
// carried into the requests that follow, by the collection's own scripts, from the spec's
// OpenAPI `links`, into paths and into body fields named after them (`compute_id`). Requests run
// creates first in each folder and deletes last, in a final folder.

/** The file the attachment request uploads, resolved against the runner's working directory. */
export const ATTACHMENT_FILE = 'attachment.txt';
export const DELETES_FOLDER = 'Clean up (deletes)';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The collection's requests, each with the folder it sits in. */
function* requestItems(items, folder = null) {
  for (const item of items) {
    if (item.item) yield* requestItems(item.item, item);
    else yield { item, folder };
  }
}

/** `METHOD /a/:b` of a collection request, the key to match it with an operation. */
const requestKey = (item) => `${item.request.method} /${item.request.url.path.join('/')}`;
const operationKey = (method, template) => `${method.toUpperCase()} ${template.replace(/\{(\w+)\}/g, ':$1')}`;

/**
 * Where each id a create answers is kept: { [operationKey]: [{ variable, pointer }] } from the
 * create's links (`$response.body#/id` → the target's path parameter, named after it).
 */
function carriedIds(openapi) {
  const carried = {};
  for (const [template, pathItem] of Object.entries(openapi.paths)) {
    for (const method of METHODS) {
      const links = pathItem[method]?.responses?.['200']?.links ?? {};
      const found = new Map();
      for (const link of Object.values(links)) {
        for (const [name, expression] of Object.entries(link.parameters ?? {})) {
          const pointer = typeof expression === 'string' && expression.startsWith('$response.body#') ? expression.slice('$response.body#'.length) : null;
          if (pointer) found.set(name, pointer);
        }
      }
      if (found.size) carried[operationKey(method, template)] = [...found].map(([variable, pointer]) => ({ variable, pointer }));
    }
  }
  return carried;
}

/** The test script of a create: keep each id it answers, encoded for a path. */
function keepIdsScript(ids) {
  return [
    '// Keeps the ids this create answers for the requests that follow (the spec\'s links).',
    'if (pm.response.code >= 200 && pm.response.code < 300) {',
    '  const body = pm.response.json();',
    '  const at = (pointer) => pointer.split("/").slice(1).reduce((node, key) => (node == null ? node : node[key.replace(/~1/g, "/").replace(/~0/g, "~")]), body);',
    ...ids.map(({ variable, pointer }) => `  if (at(${JSON.stringify(pointer)}) != null) pm.collectionVariables.set(${JSON.stringify(variable)}, encodeURIComponent(String(at(${JSON.stringify(pointer)}))));`),
    '}',
  ];
}

// An id a body names by convention: `compute_id` or `computes: [..]` is what `computeId` holds.
function carryIntoBody(raw, variable) {
  const stem = variable.replace(/Id$/, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  if (stem === variable) return raw;
  return raw
    .replace(new RegExp(`("${stem}_id"\\s*:\\s*)\\d+`, 'g'), `$1{{${variable}}}`)
    .replace(new RegExp(`("${stem}s"\\s*:\\s*\\[\\s*)\\d+(\\s*\\])`, 'g'), `$1{{${variable}}}$2`);
}

const isDelete = (item) => item.request.method === 'DELETE';
// An account-wide destructive action (cancel Object Storage) ends everything after it: it runs
// after the deletes. Same convention as the contract kit: a POST named cancel or purge, with no
// path parameter.
const isAccountWideDestructive = (item, operationIds) => item.request.method === 'POST'
  && !item.request.url.path.some((segment) => segment.startsWith(':')) && /^(cancel|purge)/.test(operationIds.get(requestKey(item)) ?? '');
const isCreate = (item, carried) => item.request.method === 'POST' && Boolean(carried[requestKey(item)]);

/**
 * Rewrites a converted collection (in place) so that it runs; `openapi` is the document it was
 * converted from. Returns the collection.
 */
export function makeRunnable(collection, openapi) {
  const carried = carriedIds(openapi);
  const numericIds = new Set(Object.values(carried).flat().map((id) => id.variable));
  const operationIds = new Map(Object.entries(openapi.paths).flatMap(([template, pathItem]) => METHODS.filter((m) => pathItem[m]).map((m) => [operationKey(m, template), pathItem[m].operationId])));
  const variables = new Map((collection.variable ?? []).map((v) => [v.key, v]));
  for (const { item } of requestItems(collection.item)) {
    for (const parameter of item.request.url.variable ?? []) {
      const value = parameter.value == null ? '' : String(parameter.value);
      const encoded = /^\{\{.*\}\}$/.test(value) ? value : encodeURIComponent(value);
      // An id some create answers comes from that create's script; until one runs, the example.
      if (Object.values(carried).some((ids) => ids.some((id) => id.variable === parameter.key))) {
        if (!variables.has(parameter.key)) variables.set(parameter.key, { key: parameter.key, value: encoded, type: 'string' });
        parameter.value = `{{${parameter.key}}}`;
      } else parameter.value = encoded;
    }
    for (const part of item.request.body?.formdata ?? []) {
      if (part.type === 'file' && !part.src) Object.assign(part, { src: ATTACHMENT_FILE, contentType: 'text/plain' });
    }
    if (item.request.body?.mode === 'raw') for (const variable of numericIds) item.request.body.raw = carryIntoBody(item.request.body.raw, variable);
    const ids = carried[requestKey(item)];
    if (ids) item.event = [...(item.event ?? []).filter((e) => e.listen !== 'test'), { listen: 'test', script: { type: 'text/javascript', exec: keepIdsScript(ids) } }];
  }
  collection.variable = [...variables.values()];
  // Creates first in each folder; every delete in a last folder, children before their parents
  // (the longer path first), so nothing is deleted that a later request needs.
  const deletes = [];
  const last = [];
  for (const folder of collection.item) {
    if (!folder.item) continue;
    last.push(...folder.item.filter((item) => isAccountWideDestructive(item, operationIds)));
    const kept = folder.item.filter((item) => !isDelete(item) && !isAccountWideDestructive(item, operationIds));
    deletes.push(...folder.item.filter(isDelete));
    folder.item = [...kept.filter((item) => isCreate(item, carried)), ...kept.filter((item) => !isCreate(item, carried))];
  }
  deletes.sort((a, b) => b.request.url.path.length - a.request.url.path.length);
  collection.item = [...collection.item.filter((folder) => !folder.item || folder.item.length), { name: DELETES_FOLDER, description: 'Every delete, run last: children before their parents; then the account-wide cancels.', item: [...deletes, ...last] }];
  return collection;
}
