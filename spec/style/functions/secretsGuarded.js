// A secret a request writes (a write-only field, at any depth of the body: root password, private
// key, credential) is guarded in every answer that could carry it, the same way everywhere: forbidden by name
// (`propertyNames: {not: {enum: [...]}}` on the answer's object), or pinned to the service's
// placeholder (`const`/`enum` of placeholders or null). The answers that could carry a secret are
// those of the resource it is written to: for a write to a collection, the collection and its
// items; for a write to an item or below one (an action, a sub-resource), that path and the item.
import { resolvePointer } from '../../lib/json-pointer.mjs';
import { schemaParts, subschemas, walkProperties } from '../../lib/schema-walk.mjs';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function resolveIn(root, node, depth = 0) {
  if (node && typeof node === 'object' && typeof node.$ref === 'string' && node.$ref.startsWith('#/') && depth < 32) {
    return resolveIn(root, resolvePointer(root, node.$ref), depth + 1);
  }
  return node;
}

// The members of a schema that describe its own object: itself and its allOf members.
function own(root, schema) {
  return schemaParts(schema, { resolve: (node) => resolveIn(root, node), keywords: ['allOf'] });
}

const isWriteOnly = (root, property) => {
  const p = resolveIn(root, property);
  if (!p || typeof p !== 'object') return false;
  if (p.writeOnly === true) return true;
  return [...(p.oneOf || []), ...(p.anyOf || [])].some((b) => { const r = resolveIn(root, b); return r && r.writeOnly === true; });
};

/** The write-only fields of a request body schema, at its top level and in the objects it nests
 * (a balancer create carries each config's `ssl_key` inside `configs`): an answer that echoes the
 * body could carry either. */
function secretsOf(root, schema) {
  const names = new Set();
  walkProperties(schema, (node) => resolveIn(root, node), (name, raw) => {
    if (!isWriteOnly(root, raw)) return true;
    names.add(name);
    return false;
  });
  return [...names];
}

// The objects of an answer that stand for the resource: the body, each item of a page, each
// branch of a union.
function resourceObjects(root, schema) {
  const s = resolveIn(root, schema);
  if (!s || typeof s !== 'object') return [];
  const members = own(root, s);
  const data = members.map((m) => m.properties && m.properties.data).find(Boolean);
  const isPage = members.some((m) => m.properties && m.properties.page && m.properties.results);
  if (isPage && data) return resourceObjects(root, resolveIn(root, data).items);
  const union = [...subschemas(s, ['oneOf', 'anyOf'])];
  if (union.length) return union.flatMap((branch) => resourceObjects(root, branch.schema));
  return [s];
}

const PLACEHOLDER = (v) => v === null || (typeof v === 'string' && /^[<[]?\W*REDACTED\W*[>\]]?$/i.test(v));
function pinned(root, property) {
  const p = resolveIn(root, property);
  if (!p || typeof p !== 'object') return false;
  if (p.not && typeof p.not === 'object' && Object.keys(p.not).length === 0) return true;
  if ('const' in p) return PLACEHOLDER(p.const);
  if (Array.isArray(p.enum)) return p.enum.every(PLACEHOLDER);
  const branches = p.oneOf || p.anyOf;
  return Array.isArray(branches) && branches.every((b) => { const r = resolveIn(root, b); return r && (r.type === 'null' || pinned(root, r)); });
}

function guards(root, object, name) {
  return own(root, object).some((m) => {
    if (m.maxProperties === 0) return true;
    const forbidden = m.propertyNames && m.propertyNames.not;
    if (forbidden && ((Array.isArray(forbidden.enum) && forbidden.enum.includes(name)) || forbidden.const === name)) return true;
    return m.properties && m.properties[name] !== undefined && pinned(root, m.properties[name]);
  });
}

function family(paths, pathKey) {
  const keys = Object.keys(paths);
  const items = keys.filter((k) => k.startsWith(`${pathKey}/`) && /^\/\{[^}]+\}$/.test(k.slice(pathKey.length)));
  if (items.length) return [pathKey, ...items];
  const item = pathKey.replace(/(\/[^{}/]+)+$/, '');
  return item !== pathKey && /\}$/.test(item) && paths[item] ? [pathKey, item] : [pathKey];
}

export default function secretsGuarded(root, options, context) {
  const paths = (root && root.paths) || {};
  const results = [];
  const reported = new Set();
  for (const [pathKey, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item && item[method];
      const content = operation && operation.requestBody && resolveIn(root, operation.requestBody).content;
      if (!content) continue;
      const secrets = [...new Set(Object.values(content).flatMap((media) => secretsOf(root, media.schema)))];
      if (!secrets.length) continue;
      for (const other of family(paths, pathKey)) {
        for (const otherMethod of METHODS) {
          const answering = paths[other][otherMethod];
          for (const [status, raw] of Object.entries((answering && answering.responses) || {})) {
            if (!/^2/.test(status)) continue;
            const schema = resolveIn(root, raw)?.content?.['application/json']?.schema;
            for (const object of resourceObjects(root, schema)) {
              for (const name of secrets.filter((n) => !guards(root, object, n))) {
                const key = `${other} ${otherMethod} ${status} ${name}`;
                if (reported.has(key)) continue;
                reported.add(key);
                results.push({
                  message: `The ${status} answer of ${answering.operationId || `${otherMethod.toUpperCase()} ${other}`} could carry "${name}", which ${operation.operationId || `${method.toUpperCase()} ${pathKey}`} writes as a secret (writeOnly), and does not guard it: add "propertyNames: {not: {enum: [${name}]}}" to the answer's object schema, or declare "${name}" pinned to the service's placeholder (const '[REDACTED]').`,
                  path: ['paths', other, otherMethod, 'responses', status],
                });
              }
            }
          }
        }
      }
    }
  }
  return results;
}
