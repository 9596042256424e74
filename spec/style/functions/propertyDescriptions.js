import { walkSchema, isCondition } from './schemaWalk.js';

// Every declared property of a request or response body is described, for docs readers and for
// the comments of generated types. Properties named inside conditions (`if`, `not`) or in the
// branches they choose (`then`, `else`, `dependentSchemas`) restate a declared property with an
// extra constraint, and need no description of their own.
const BRANCHES = new Set(['then', 'else', 'dependentSchemas']);

export default function propertyDescriptions(schema, options, context) {
  const results = [];
  walkSchema(schema, (node, path, via, trail) => {
    if (isCondition(trail) || trail.some((k) => BRANCHES.has(k))) return;
    if (!node.properties || typeof node.properties !== 'object') return;
    for (const [name, property] of Object.entries(node.properties)) {
      if (property === false || property === true) continue;
      if (!property || typeof property.description !== 'string' || property.description.trim() === '') {
        results.push({
          message: `Property "${name}" has no description: say what it means, its unit and any rule the schema cannot hold.`,
          path: [...context.path, ...path, 'properties', name],
        });
      }
    }
  });
  return results;
}
