import { formatPointer } from '../../lib/json-pointer.mjs';
import { ownProperties } from '../../lib/schema-walk.mjs';
import { atPointer, resolvedRoot } from './schemaWalk.js';

// An operation that creates a resource links, on its success response, to every operation that
// reads, changes, deletes or works under that resource, so tools (the contract kit among them)
// chain calls without guessing ids. The convention (spec/DECISIONS.md section 13):
//
// - a create is a POST whose operationId starts with one of `options.verbs` and whose success body
//   is (or holds in a top-level field, like an upload's `image`) what the GET of an item path (a
//   path ending in a parameter) answers; that path is the new resource's address. A create posted
//   to a collection whose read answers another shape (an access key, a tag) has the address right
//   below the collection;
// - its targets are every operation at that address or below it whose path has no further
//   parameter;
// - one link per target, named after the target's operationId, with `operationId`, a
//   `description`, and `parameters` mapping every path parameter of the target: the parameters
//   at the end of the address (the new resource's key) from `$response.body#/<pointer>`, the
//   others (parent keys) from `$request.path.<name>` of the create.
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function successSchema(operation) {
  const ok = operation && operation.responses && operation.responses['200'];
  return ok && ok.content && ok.content['application/json'] && ok.content['application/json'].schema;
}

// Deep equality of resolved schemas, which may share (or, in a resolved multi-file document,
// duplicate) subtrees; a cycle counts as different rather than looping.
function same(a, b, seen = new Set()) {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  if (seen.has(a)) return false;
  const inner = new Set(seen).add(a);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k], inner));
}

const pathParams = (pathKey) => [...pathKey.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
// The parameters at the end of an address: `/buckets/{clusterId}/{bucket}` → both.
function keyParams(address) {
  const segments = address.split('/');
  const keys = [];
  for (let i = segments.length - 1; i > 0 && /^\{[^}]+\}$/.test(segments[i]); i--) keys.unshift(segments[i].slice(1, -1));
  return keys;
}

// Every operation at an address or below it whose path has no further parameter.
function targetsAt(paths, address) {
  const targets = [];
  for (const [other, item] of Object.entries(paths)) {
    if (other !== address && !(other.startsWith(`${address}/`) && !other.slice(address.length).includes('{'))) continue;
    for (const method of METHODS) {
      const target = item && item[method];
      if (target && target.operationId) targets.push({ pathKey: other, method, operationId: target.operationId });
    }
  }
  return targets;
}

// What a create operation must link to: [{ address, pointer, targets: [{ pathKey, method, operationId }] }].
export function createTargets(paths, pathKey, operation, verbs) {
  const verb = (String(operation.operationId || '').match(/^[a-z]+/) || [''])[0];
  if (!verbs.includes(verb)) return [];
  const created = successSchema(operation);
  if (!created) return [];
  const candidates = [['', created], ...Object.entries(ownProperties(created)).map(([name, schema]) => [formatPointer([name]), schema])];
  const found = [];
  for (const [address, item] of Object.entries(paths || {})) {
    if (!/\}$/.test(address) || !item || !item.get) continue;
    const read = successSchema(item.get);
    const match = candidates.find(([, schema]) => same(schema, read));
    if (!match) continue;
    found.push({ address, pointer: match[0], targets: targetsAt(paths, address) });
  }
  if (found.length > 0) return found;
  // A create that answers a different view of the resource than its read (an access key with its
  // secret, a tag whose address lists what it tags): the address is the deepest path made of
  // parameters only right below the collection it was posted to.
  const below = Object.keys(paths || {})
    .filter((address) => address.startsWith(`${pathKey}/`) && /^(\/\{[^}]+\})+$/.test(address.slice(pathKey.length)))
    .sort((a, b) => b.length - a.length);
  if (below.length) return [{ address: below[0], pointer: '', targets: targetsAt(paths, below[0]) }];
  // A create whose new resource has no address of its own (a managed service, a ticket reply) but
  // shows up as an item of the collection it was posted to: the links lead to that list and to the
  // read of the collection's parent, where there is one.
  const list = paths[pathKey] && paths[pathKey].get;
  const page = list && ownProperties(successSchema(list));
  if (!page || !page.data || !page.results || !same(page.data.items, created)) return [];
  const targets = [{ pathKey, method: 'get', operationId: list.operationId }];
  const parent = pathKey.replace(/\/[^/{}]+$/, '');
  if (parent !== pathKey && /\}$/.test(parent) && paths[parent] && paths[parent].get) {
    targets.push({ pathKey: parent, method: 'get', operationId: paths[parent].get.operationId });
  }
  return [{ address: pathKey, pointer: '', targets }];
}

export default function createLinks(operation, options, context) {
  if (!operation || typeof operation !== 'object') return [];
  const pathKey = String(context.path[1] || '');
  const paths = resolvedRoot(context).paths || {};
  const found = createTargets(paths, pathKey, operation, options.verbs || []);
  if (found.length === 0) return [];
  const created = successSchema(operation);
  const links = (operation.responses['200'] && operation.responses['200'].links) || {};
  const here = [...context.path, 'responses', '200'];
  const createParams = new Set(pathParams(pathKey));
  const results = [];
  const expected = new Set();
  for (const { address, pointer, targets } of found) {
    const keys = new Set(keyParams(address));
    for (const target of targets) {
      expected.add(target.operationId);
      const params = pathParams(target.pathKey);
      const suggestion = params.map((p) => `${p}: ${keys.has(p) ? `$response.body#${pointer}/<field>` : `$request.path.${p}`}`).join(', ');
      const link = links[target.operationId];
      if (!link || typeof link !== 'object') {
        results.push({
          message: `This operation creates the resource at ${address}: add "links: {${target.operationId}: {operationId: ${target.operationId}, description: ..., parameters: {${suggestion}}}}" to its 200 response (${target.method.toUpperCase()} ${target.pathKey}).`,
          path: [...here, 'links'],
        });
        continue;
      }
      const at = [...here, 'links', target.operationId];
      if (link.operationId !== target.operationId) {
        results.push({ message: `Link "${target.operationId}" must say "operationId: ${target.operationId}": a link is named after the operation it leads to.`, path: at });
      }
      if (typeof link.description !== 'string' || link.description.trim().length < 10) {
        results.push({ message: `Link "${target.operationId}" needs a description saying where it leads and where each parameter comes from.`, path: at });
      }
      const given = (link.parameters && typeof link.parameters === 'object') ? link.parameters : {};
      for (const name of params) {
        const value = given[name];
        if (keys.has(name)) {
          const m = typeof value === 'string' && value.match(/^\$response\.body#(\/.*)$/);
          if (!m || !atPointer(created, m[1])) {
            results.push({ message: `Link "${target.operationId}" must map path parameter "${name}", the new resource's key, to a field of this response: "$response.body#${pointer}/<field>".`, path: [...at, 'parameters'] });
          }
        } else if (value !== `$request.path.${name}` || !createParams.has(name)) {
          results.push({ message: `Link "${target.operationId}" must map path parameter "${name}", a parent's key, to "$request.path.${name}" (a path parameter of this operation).`, path: [...at, 'parameters'] });
        }
      }
      for (const name of Object.keys(given)) {
        if (!params.includes(name)) results.push({ message: `Link "${target.operationId}" maps "${name}", which is not a path parameter of ${target.pathKey}: remove it.`, path: [...at, 'parameters', name] });
      }
    }
  }
  for (const name of Object.keys(links)) {
    if (!expected.has(name)) {
      results.push({ message: `Link "${name}" leads to no operation at or below the new resource's address: name a link after the operationId of such an operation, or remove it.`, path: [...here, 'links', name] });
    }
  }
  return results;
}
