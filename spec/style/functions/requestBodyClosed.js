import { isCondition, walkSchema } from './schemaWalk.js';

// Request bodies reject fields they do not declare, so a typo or a read-only field in a request
// fails validation (in the mock and in implementations) and generated request types stay exact.
// Members of allOf and the branches of if/then/else are checked through their parent, which must
// close the combination with `unevaluatedProperties: false`.
const OPEN_BY_PARENT = new Set(['allOf', 'if', 'then', 'else', 'not', 'dependentSchemas', 'contains']);

export default function requestBodyClosed(schema, options, context) {
  const results = [];
  walkSchema(schema, (node, path, via, trail) => {
    // Conditions (inside `if`, `not`...) test fields; they declare none.
    if (OPEN_BY_PARENT.has(via) || isCondition(trail)) return;
    const describesObject = (node.properties && Object.keys(node.properties).length > 0) || Array.isArray(node.allOf);
    if (!describesObject) return;
    const closed = node.additionalProperties === false || node.unevaluatedProperties === false;
    if (!closed) {
      results.push({
        message: 'Request object is open: add "additionalProperties: false" (or "unevaluatedProperties: false" when it combines schemas with allOf) so undeclared fields are rejected.',
        path: [...context.path, ...path],
      });
    }
  });
  return results;
}
