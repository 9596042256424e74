import { isCondition, walkSchema } from './schemaWalk.js';

// Every array a request body takes says how long it may be: an unbounded list of ids or tags
// lets one valid request outgrow a database's bound parameters or stall a server (spec/DECISIONS.md
// section 2). Conditions (inside `if`, `not`...) test arrays; they declare none.
export default function requestArraysBounded(schema, options, context) {
  const results = [];
  walkSchema(schema, (node, path, via, trail) => {
    if (isCondition(trail)) return;
    const types = Array.isArray(node.type) ? node.type : [node.type];
    const isArray = types.includes('array') || (node.items && typeof node.items === 'object');
    if (isArray && typeof node.maxItems !== 'number') {
      results.push({
        message: 'Request array without "maxItems": bound its length (DECISIONS section 2 gives the house bounds: 100 for tags and most lists, 500 for the ids a tag is put on).',
        path: [...context.path, ...path],
      });
    }
  });
  return results;
}
