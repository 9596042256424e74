import { walkSchema, isCondition } from './schemaWalk.js';

// Every declared property of a request or response body is described, for docs readers and for
// the comments of generated types. Properties named inside conditions (`if`, `not`) or in the
// branches they choose (`then`, `else`, `dependentSchemas`) restate a declared property with an
// extra constraint, and need no description of their own.
const BRANCHES = new Set(['then', 'else', 'dependentSchemas']);

const hasText = (s) => typeof s === 'string' && s.trim() !== '';
// Described itself, or a nullable reference (`oneOf: [{$ref}, {type: 'null'}]`) whose referenced
// schema is described: the reference carries the description, as a plain $ref does.
function described(property) {
  if (!property || typeof property !== 'object') return false;
  if (hasText(property.description)) return true;
  const branches = property.oneOf || property.anyOf;
  if (!Array.isArray(branches)) return false;
  const values = branches.filter((b) => !(b && b.type === 'null'));
  return values.length > 0 && values.every((b) => b && hasText(b.description));
}

export default function propertyDescriptions(schema, options, context) {
  const results = [];
  walkSchema(schema, (node, path, via, trail) => {
    if (isCondition(trail) || trail.some((k) => BRANCHES.has(k))) return;
    if (!node.properties || typeof node.properties !== 'object') return;
    for (const [name, property] of Object.entries(node.properties)) {
      if (property === false || property === true) continue;
      if (!described(property)) {
        results.push({
          message: `Property "${name}" has no description: say what it means, its unit and any rule the schema cannot hold.`,
          path: [...context.path, ...path, 'properties', name],
        });
      }
    }
  });
  return results;
}
