import { walkSchema } from './schemaWalk.js';

// Response objects list in `required` every field that is always present, so generated types do
// not make every response field optional. An object schema with properties and no `required` is
// almost always an oversight.
export default function responseRequired(schema, options, context) {
  const results = [];
  walkSchema(schema, (node, path) => {
    const hasProperties = node.properties && typeof node.properties === 'object' && Object.keys(node.properties).length > 0;
    if (hasProperties && !(Array.isArray(node.required) && node.required.length > 0)) {
      const names = Object.keys(node.properties).slice(0, 4).join(', ');
      results.push({
        message: `Response object with properties (${names}${Object.keys(node.properties).length > 4 ? ', ...' : ''}) has no "required" list: list every property that is always present.`,
        path: [...context.path, ...path],
      });
    }
  });
  return results;
}
