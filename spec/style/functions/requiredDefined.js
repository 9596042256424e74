import { ownProperties } from '../../lib/schema-walk.mjs';
import { walkSchema } from './schemaWalk.js';

// Every name in `required` (and in `dependentRequired`) is a declared property, catching typos
// that would make a field impossible to send or always missing. Unlike Redocly's
// no-required-schema-properties-undefined, names required inside if/then/else, not, anyOf, oneOf
// and dependentSchemas are looked up in the object schema that holds those branches, which is
// how conditional rules ("region is required without compute_id") are written.
const BRANCHES = new Set(['if', 'then', 'else', 'not', 'anyOf', 'oneOf', 'dependentSchemas']);

const declared = (schema) => new Set(Object.keys(ownProperties(schema)));

export default function requiredDefined(schema, options, context) {
  const results = [];
  // Remember which object schema encloses each branch, so a branch can use its parent's names.
  const owner = new Map();
  walkSchema(schema, (node, path, via) => {
    const parent = path.length ? owner.get(path.slice(0, via === 'dependentSchemas' || via === 'anyOf' || via === 'oneOf' ? -2 : -1).join('/')) : null;
    const own = declared(node);
    const scope = BRANCHES.has(via) && parent ? new Set([...parent, ...own]) : own;
    owner.set(path.join('/'), scope);
    const report = (names, where) => {
      for (const [i, name] of names.entries()) {
        if (!scope.has(name)) {
          results.push({
            message: `"${name}" is required but not declared in properties: fix the name or declare the property.`,
            path: [...context.path, ...path, ...where, i],
          });
        }
      }
    };
    if (Array.isArray(node.required)) report(node.required, ['required']);
    for (const [key, names] of Object.entries(node.dependentRequired || {})) {
      if (!scope.has(key)) results.push({ message: `dependentRequired names "${key}", which is not declared in properties.`, path: [...context.path, ...path, 'dependentRequired', key] });
      if (Array.isArray(names)) report(names, ['dependentRequired', key]);
    }
  });
  return results;
}
