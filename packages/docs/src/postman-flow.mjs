// What makes the converted Postman collection run as it is, against the mock or a real server
// (newman, Postman's runner): path values encoded as the spec says (an image id `private/15`
// travels as `private%2F15`), a file for the attachment upload, and the ids that creates answer
// carried into the requests that follow, by the collection's own scripts, from the spec's
// OpenAPI `links`, into paths and into body fields named after them (`compute_id`). Requests run
// creates first, in a first folder, and deletes last, in a final folder.
import { parsePointer } from '@cloudapi/spec/json-pointer';

/** The file the attachment request uploads, resolved against the runner's working directory. */
export const ATTACHMENT_FILE = 'attachment.txt';
export const CREATES_FOLDER = 'Set up (creates)';
export const DELETES_FOLDER = 'Clean up (deletes)';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** A link's body pointer (`/id`) as the script's literal list of its tokens (`["id"]`). */
const tokensOf = (pointer) => JSON.stringify(parsePointer(pointer));

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

// The variable that holds a path parameter, named after the path's literal segments before it
// and the parameter (`compute_instances_configs_configId`), since two paths may name different
// things alike (a balancer's `configId` and an instance's).
function variableFor(segments, parameter) {
  const at = segments.findIndex((segment) => segment === `{${parameter}}` || segment === `:${parameter}`);
  return [...segments.slice(0, at).filter((segment) => !/^[{:]/.test(segment)), parameter].join('_');
}

// The carried variable of a path parameter: the one of this very path, else the only one of
// that name (`managed/compute-settings/{computeId}` uses the instance's).
function carriedVariable(carriedVariables, segments, parameter) {
  const own = variableFor(segments, parameter);
  if (carriedVariables.has(own)) return own;
  const alike = [...carriedVariables].filter((v) => v.split('_').at(-1) === parameter);
  return alike.length === 1 ? alike[0] : undefined;
}

/**
 * Where each id a create answers is kept: { [operationKey]: [{ variable, parameter, pointer }] }
 * from the create's links (`$response.body#/id` → the target's path parameter).
 */
function carriedIds(openapi) {
  const pathOf = new Map(Object.entries(openapi.paths).flatMap(([template, pathItem]) => METHODS.filter((m) => pathItem[m]).map((m) => [pathItem[m].operationId, template])));
  const carried = {};
  for (const [template, pathItem] of Object.entries(openapi.paths)) {
    for (const method of METHODS) {
      const links = pathItem[method]?.responses?.['200']?.links ?? {};
      const found = new Map();
      for (const link of Object.values(links)) {
        const target = pathOf.get(link.operationId);
        for (const [parameter, expression] of Object.entries(link.parameters ?? {})) {
          // A clone posted under the object it copies (its own path names the parameter) leaves
          // the variable on the original, which the requests after it (a backup) are about.
          if (template.includes(`{${parameter}}`)) continue;
          const pointer = typeof expression === 'string' && expression.startsWith('$response.body#') ? expression.slice('$response.body#'.length) : null;
          if (pointer && target) found.set(variableFor(target.split('/').slice(1), parameter), { parameter, pointer });
        }
      }
      if (found.size) carried[operationKey(method, template)] = [...found].map(([variable, id]) => ({ variable, ...id }));
    }
  }
  return carried;
}

/**
 * The lists a create links to whose every path parameter comes from its answer (an instance's
 * configs): { [operationKey]: [{ path: [segments, a parameter as {pointer}], itemVariable }] }.
 * The create's script reads them, for what no create answers: the new instance's disks and its
 * default config.
 */
function linkedLists(openapi) {
  const byId = new Map(Object.entries(openapi.paths).flatMap(([template, pathItem]) => METHODS.filter((m) => pathItem[m]).map((m) => [pathItem[m].operationId, { template, method: m }])));
  const lists = {};
  for (const [template, pathItem] of Object.entries(openapi.paths)) {
    for (const method of METHODS) {
      for (const link of Object.values(pathItem[method]?.responses?.['200']?.links ?? {})) {
        const target = byId.get(link.operationId);
        if (!target || target.method !== 'get' || /\}$/.test(target.template)) continue;
        const item = Object.keys(openapi.paths).find((other) => other.startsWith(`${target.template}/{`) && /^\/\{[^}/]+\}$/.test(other.slice(target.template.length)) && openapi.paths[other].get);
        const params = Object.fromEntries(Object.entries(link.parameters ?? {}).map(([name, expression]) => [name, String(expression)]));
        if (!item || !Object.values(params).every((e) => e.startsWith('$response.body#'))) continue;
        const path = target.template.split('/').slice(1).map((segment) => (/^\{/.test(segment) ? { pointer: params[segment.slice(1, -1)].slice('$response.body#'.length) } : segment));
        (lists[operationKey(method, template)] ??= []).push({ path, itemVariable: variableFor(item.split('/').slice(1), item.slice(target.template.length + 2, -1)) });
      }
    }
  }
  return lists;
}

/** The test script of a create: keep each id it answers, encoded for a path, and what its linked lists hold. */
function keepIdsScript(ids, lists, harvested) {
  return [
    '// Keeps the ids this create answers for the requests that follow (the spec\'s links).',
    'if (pm.response.code >= 200 && pm.response.code < 300) {',
    '  const body = pm.response.json();',
    // The script runs inside Postman, where no module can be imported: each pointer goes in as its
    // tokens, parsed here, so the script only steps through them.
    '  const at = (tokens) => tokens.reduce((node, key) => (node == null ? node : node[key]), body);',
    ...ids.map(({ variable, pointer }) => `  if (at(${tokensOf(pointer)}) != null) pm.collectionVariables.set(${JSON.stringify(variable)}, encodeURIComponent(String(at(${tokensOf(pointer)}))));`),
    ...(lists.length ? [
      '  // The lists under the new object: the first item\'s id, and the ids no create answers (disks).',
      `  const harvested = ${JSON.stringify(harvested)};`,
      '  const keep = (page, itemVariable) => {',
      '    const items = (page && page.data) || [];',
      '    if (items[0] && items[0].id != null) pm.collectionVariables.set(itemVariable, encodeURIComponent(String(items[0].id)));',
      '    const found = {};',
      '    const walk = (node) => { if (node && typeof node === "object") for (const [key, value] of Object.entries(node)) { if (harvested.includes(key) && typeof value === "number") { found[key] = found[key] || []; if (!found[key].includes(value)) found[key].push(value); } else walk(value); } };',
      '    walk(items);',
      '    for (const [key, values] of Object.entries(found)) values.forEach((value, i) => pm.collectionVariables.set(`${key}_${i + 1}`, String(value)));',
      '  };',
      ...lists.map(({ path, itemVariable }) => `  pm.sendRequest({ url: pm.variables.replaceIn("{{baseUrl}}") + ${JSON.stringify('/')} + [${path.map((p) => (typeof p === 'string' ? JSON.stringify(p) : `encodeURIComponent(String(at(${tokensOf(p.pointer)})))`)).join(', ')}].join("/"), method: "GET", header: { Authorization: "Bearer " + pm.variables.replaceIn("{{bearerToken}}") } }, (error, response) => { if (!error && response.code === 200) keep(response.json(), ${JSON.stringify(itemVariable)}); });`),
    ] : []),
    '}',
  ];
}

/**
 * The lists whose items no create of the collection makes (managed issues, made by the service):
 * { [operationKey of the list]: the variable of its item path }. The list's script keeps its
 * first item's id for the requests on one item.
 */
function listedIds(openapi, carriedVariables) {
  const listed = {};
  for (const [template, pathItem] of Object.entries(openapi.paths)) {
    const list = pathItem.get;
    const page = list?.responses?.['200']?.content?.['application/json']?.schema;
    if (!list || /\}$/.test(template) || !page) continue;
    const item = Object.keys(openapi.paths).find((other) => other.startsWith(`${template}/{`) && /^\/\{[^}/]+\}$/.test(other.slice(template.length)) && openapi.paths[other].get);
    if (!item) continue;
    const variable = variableFor(item.split('/').slice(1), item.slice(template.length + 2, -1));
    if (!carriedVariables.has(variable)) listed[operationKey('get', template)] = variable;
  }
  return listed;
}

function keepFirstScript(variable) {
  return [
    '// Keeps the id of the first item listed for the requests on one item (no create makes these).',
    'if (pm.response.code === 200) {',
    '  const first = ((pm.response.json() || {}).data || [])[0];',
    `  if (first && first.id != null) pm.collectionVariables.set(${JSON.stringify(variable)}, encodeURIComponent(String(first.id)));`,
    '}',
  ];
}

// The `<x>_id` fields of request bodies whose ids no create answers (`disk_id`): the creates'
// scripts find them in the lists they link to. Each distinct example value, in the order the
// collection first shows it, becomes `{{disk_id_1}}`, `{{disk_id_2}}`..., in `disk_id` fields and
// in `disks` lists alike (the example values until a script runs).
function harvestableFields(items, carriedVariables) {
  const parameters = new Set([...carriedVariables].map((v) => v.split('_').at(-1)));
  const names = new Set();
  for (const item of items) {
    for (const [, stem] of (item.request.body?.raw ?? '').matchAll(/"(\w+)_id"\s*:\s*\d+/g)) {
      if (!parameters.has(`${stem.replace(/_(\w)/g, (_, c) => c.toUpperCase())}Id`)) names.add(`${stem}_id`);
    }
  }
  return [...names];
}

function harvestIntoBody(raw, harvested, variables) {
  for (const name of harvested) {
    const stem = name.replace(/_id$/, '');
    const variableOf = (value) => {
      const known = [...variables.values()].find((v) => v.key.startsWith(`${name}_`) && v.value === value);
      if (known) return known.key;
      const key = `${name}_${[...variables.keys()].filter((k) => k.startsWith(`${name}_`)).length + 1}`;
      variables.set(key, { key, value, type: 'string' });
      return key;
    };
    raw = raw
      .replace(new RegExp(`("${name}"\\s*:\\s*)(\\d+)`, 'g'), (_, key, value) => `${key}{{${variableOf(value)}}}`)
      .replace(new RegExp(`("${stem}s"\\s*:\\s*\\[)([\\d,\\s]+)(\\])`, 'g'), (_, open, list, close) => `${open}${list.replace(/\d+/g, (value) => `{{${variableOf(value)}}}`)}${close}`);
  }
  return raw;
}

// An id a body names by convention: `compute_id` or `computes: [..]` is what the variable of a
// `computeId` holds. Of several such variables (a balancer's config and an instance's), the one
// of the request's own area, else the one whose path holds another id the body names.
function carryIntoBody(raw, variables, requestSegments) {
  const byParameter = new Map();
  for (const variable of variables) {
    const parameter = variable.split('_').at(-1);
    byParameter.set(parameter, [...(byParameter.get(parameter) ?? []), variable]);
  }
  for (const [parameter, candidates] of byParameter) {
    const stem = parameter.replace(/Id$/, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (stem === parameter) continue;
    const pattern = new RegExp(`("${stem}_id"\\s*:\\s*)\\d+|("${stem}s"\\s*:\\s*\\[\\s*)\\d+(\\s*\\])`, 'g');
    if (!pattern.test(raw)) continue;
    const variable = candidates.length === 1 ? candidates[0]
      : candidates.find((v) => v.startsWith(`${requestSegments[0]}_`))
        ?? candidates.find((v) => v.split('_').slice(0, -2).some((segment) => raw.includes(`"${segment.replace(/s$/, '')}_id"`)))
        ?? candidates[0];
    raw = raw.replace(pattern, (match, single, list, close) => (single ? `${single}{{${variable}}}` : `${list}{{${variable}}}${close}`));
  }
  return raw;
}

// Creates ordered so that each runs after the creates whose variables it uses (a tag after the
// volume it tags), keeping the collection's order otherwise.
function afterTheirSources(creates, carried, variables) {
  // A create uses a variable it names, or, for a tag, the label it would otherwise make by tagging
  // (a domain created with `tags: ["production"]` before the tag create would make the tag).
  const taggedWith = (item) => JSON.parse(((item.request.body?.raw ?? '').match(/"tags"\s*:\s*(\[[^\]]*\])/) ?? [null, '[]'])[1].replace(/\{\{\w+\}\}/g, '0'));
  const uses = (item) => JSON.stringify(item.request.url) + (item.request.body?.raw ?? '')
    + taggedWith(item).map((label) => [...variables.values()].filter((v) => v.value === encodeURIComponent(String(label))).map((v) => `{{${v.key}}}`).join('')).join('');
  const ordered = [];
  const pending = [...creates];
  while (pending.length) {
    const ready = pending.findIndex((item) => pending.every((other) => other === item
      || !(carried[requestKey(other)] ?? []).some(({ variable }) => uses(item).includes(`{{${variable}}}`) && !(carried[requestKey(item)] ?? []).some((own) => own.variable === variable))));
    ordered.push(...pending.splice(ready < 0 ? 0 : ready, 1));
  }
  return ordered;
}

// An action that undoes another on the same object (detach, of attach) runs before it: the create
// may already have done what the other does (a volume created with `compute_id` is attached).
function undoFirst(items) {
  const actionOf = (item) => (item.request.method === 'POST' ? item.request.url.path.at(-1) : '');
  const result = [...items];
  for (const undo of items.filter((item) => /^(de|dis|un)[a-z]/.test(actionOf(item)))) {
    const base = actionOf(undo).replace(/^(de|dis|un)/, '');
    // `detach` undoes `attach`, `disable` `enable`: the other action ends like the undo's stem.
    const done = result.findIndex((item) => item !== undo && actionOf(item).endsWith(base) && item.request.url.path.slice(0, -1).join('/') === undo.request.url.path.slice(0, -1).join('/'));
    if (done >= 0 && done < result.indexOf(undo)) result.splice(done, 0, ...result.splice(result.indexOf(undo), 1));
  }
  return result;
}

const isDelete = (item) => item.request.method === 'DELETE';
// A destructive action (the contract kit's convention: a POST named cancel, purge, destroy, wipe
// or reset), a restore and a rebuild (they replace an instance's disks and configs, a config's
// nodes) end what later requests need: they run in the last folder, on one object just before
// that object's delete (after its children's), for the whole account after every delete (cancel
// Object Storage).
const isDestructive = (item, operationIds) => item.request.method === 'POST' && /^(cancel|purge|destroy|wipe|reset|restore|rebuild)[A-Z]/.test(operationIds.get(requestKey(item)) ?? '');
const isAccountWideDestructive = (item, operationIds) => isDestructive(item, operationIds) && !item.request.url.path.some((segment) => segment.startsWith(':'));
const isCreate = (item, carried) => item.request.method === 'POST' && Boolean(carried[requestKey(item)]);

// No request writes an object, yet some name one (the ACL of `photos/cat.jpg`): the create of
// their container writes each through a pre-signed PUT URL (the request that hands out object
// URLs), and the container's delete first removes them through DELETE URLs, as an object left
// behind would make it fail.
function writeNamedObjects(items, carried) {
  const urlMaker = items.find((item) => item.request.method === 'POST' && item.request.url.path.at(-1) === 'object-url');
  if (!urlMaker) return;
  const container = urlMaker.request.url.path.slice(0, -1).join('/');
  const inContainer = items.filter((item) => item !== urlMaker && item.request.url.path.slice(0, -1).join('/') === container);
  const names = new Set(inContainer.flatMap((item) => [
    ...(item.request.url.query ?? []).filter((q) => q.key === 'name').map((q) => q.value),
    ...[...(item.request.body?.raw ?? '').matchAll(/"name"\s*:\s*"([^"]+)"/g)].map((m) => m[1]),
  ]));
  const create = items.find((item) => isCreate(item, carried) && urlMaker.request.url.path.slice(0, -1).join('/').startsWith(item.request.url.path.join('/')));
  const remove = items.find((item) => isDelete(item) && item.request.url.path.join('/') === container);
  if (!names.size || !create || !remove) return;
  const urlOf = `pm.variables.replaceIn(${JSON.stringify(`{{baseUrl}}/${urlMaker.request.url.path.map((segment) => (segment.startsWith(':') ? urlMaker.request.url.variable.find((v) => v.key === segment.slice(1)).value : segment)).join('/')}`)})`;
  const objectUrl = [
    `const objectUrl = (name, method, then) => pm.sendRequest({ url: ${urlOf}, method: "POST", header: { Authorization: "Bearer " + pm.variables.replaceIn("{{bearerToken}}"), "Content-Type": "application/json" },`,
    '  body: { mode: "raw", raw: JSON.stringify(method === "PUT" ? { name, method, content_type: "text/plain" } : { name, method }) } }, (error, response) => { if (!error && response.code === 200) then(response.json().url); });',
    `const names = ${JSON.stringify([...names])};`,
  ];
  const script = (listen, lines) => ({ listen, script: { type: 'text/javascript', exec: lines } });
  const test = create.event.find((e) => e.listen === 'test');
  test.script.exec.push(
    '// Writes the objects other requests name, through pre-signed PUT URLs.',
    'if (pm.response.code >= 200 && pm.response.code < 300) {',
    ...objectUrl.map((line) => `  ${line}`),
    '  for (const name of names) objectUrl(name, "PUT", (url) => pm.sendRequest({ url, method: "PUT", header: { "Content-Type": "text/plain" }, body: { mode: "raw", raw: "Written by the collection." } }, () => {}));',
    '}',
  );
  remove.event = [...(remove.event ?? []).filter((e) => e.listen !== 'prerequest'), script('prerequest', [
    '// Removes the objects the container\'s create wrote, so that it can be deleted.',
    ...objectUrl,
    'for (const name of names) objectUrl(name, "DELETE", (url) => pm.sendRequest({ url, method: "DELETE" }, () => {}));',
  ])];
}

/**
 * Rewrites a converted collection (in place) so that it runs; `openapi` is the document it was
 * converted from. Returns the collection.
 */
export function makeRunnable(collection, openapi) {
  const carried = carriedIds(openapi);
  const listed = listedIds(openapi, new Set(Object.values(carried).flat().map((id) => id.variable)));
  const carriedVariables = new Set([...Object.values(carried).flat().map((id) => id.variable), ...Object.values(listed)]);
  const operationIds = new Map(Object.entries(openapi.paths).flatMap(([template, pathItem]) => METHODS.filter((m) => pathItem[m]).map((m) => [operationKey(m, template), pathItem[m].operationId])));
  const variables = new Map((collection.variable ?? []).map((v) => [v.key, v]));
  const lists = linkedLists(openapi);
  const harvested = harvestableFields([...requestItems(collection.item)].map(({ item }) => item), carriedVariables);
  for (const { item } of requestItems(collection.item)) {
    for (const parameter of item.request.url.variable ?? []) {
      const value = parameter.value == null ? '' : String(parameter.value);
      const encoded = /^\{\{.*\}\}$/.test(value) ? value : encodeURIComponent(value);
      // An id some create answers comes from that create's script; until one runs, the example.
      const variable = carriedVariable(carriedVariables, item.request.url.path, parameter.key);
      if (variable) {
        if (!variables.has(variable)) variables.set(variable, { key: variable, value: encoded, type: 'string' });
        parameter.value = `{{${variable}}}`;
      } else parameter.value = encoded;
    }
    for (const part of item.request.body?.formdata ?? []) {
      if (part.type === 'file' && !part.src) Object.assign(part, { src: ATTACHMENT_FILE, contentType: 'text/plain' });
    }
    if (item.request.body?.mode === 'raw') item.request.body.raw = harvestIntoBody(carryIntoBody(item.request.body.raw, carriedVariables, item.request.url.path), harvested, variables);
    if (listed[requestKey(item)]) item.event = [...(item.event ?? []).filter((e) => e.listen !== 'test'), { listen: 'test', script: { type: 'text/javascript', exec: keepFirstScript(listed[requestKey(item)]) } }];
    const ids = carried[requestKey(item)];
    if (ids) item.event = [...(item.event ?? []).filter((e) => e.listen !== 'test'), { listen: 'test', script: { type: 'text/javascript', exec: keepIdsScript(ids, lists[requestKey(item)] ?? [], harvested) } }];
  }
  collection.variable = [...variables.values()];
  writeNamedObjects([...requestItems(collection.item)].map(({ item }) => item), carried);
  // Every create first, in a folder of its own, each after the creates whose ids it uses; then a
  // folder per tag with the reads, updates and actions; every delete in a last folder, children
  // before their parents (the longer path first), then the account-wide cancels.
  const creates = [];
  const deletes = [];
  const last = [];
  const cancels = [];
  for (const folder of collection.item) {
    if (!folder.item) continue;
    last.push(...folder.item.filter((item) => isAccountWideDestructive(item, operationIds)));
    cancels.push(...folder.item.filter((item) => isDestructive(item, operationIds) && !isAccountWideDestructive(item, operationIds)));
    deletes.push(...folder.item.filter(isDelete));
    creates.push(...folder.item.filter((item) => isCreate(item, carried)));
    folder.item = undoFirst(folder.item.filter((item) => !isDelete(item) && !isDestructive(item, operationIds) && !isCreate(item, carried)));
  }
  deletes.sort((a, b) => b.request.url.path.length - a.request.url.path.length);
  // Each action goes before the delete of the nearest object it acts on; a restore before the
  // cancel of backups, which would remove the backup it needs (placed last, ahead of the others).
  const restores = (item) => (/^restore/.test(operationIds.get(requestKey(item)) ?? '') ? 1 : 0);
  const ordered = [...deletes];
  for (const action of cancels.sort((a, b) => restores(a) - restores(b))) {
    const path = action.request.url.path.join('/');
    let at = ordered.findIndex((item) => item.request.method === 'DELETE' && path.startsWith(`${item.request.url.path.join('/')}/`));
    if (at < 0) at = ordered.length;
    while (at > 0 && ordered[at - 1].request.method !== 'DELETE') at -= 1; // before the actions placed there
    ordered.splice(at, 0, action);
  }
  collection.item = [
    { name: CREATES_FOLDER, description: 'Every create, run first: each after the creates whose ids it uses.', item: afterTheirSources(creates, carried, variables) },
    ...collection.item.filter((folder) => !folder.item || folder.item.length),
    { name: DELETES_FOLDER, description: 'Run last: every delete (children before their parents), each after the cancels, restores and rebuilds of its object; then the account-wide cancels.', item: [...ordered, ...last] },
  ];
  return collection;
}
