import { resolvedRoot } from './schemaWalk.js';

// Every operation declares the shared error responses that can happen to it, so generated clients
// see the error type: 429 always; 401 and 403 when secured; 404 when the path has parameters;
// 400 when there is a body or any parameter (a value can break its schema); 413 when there is a
// body (every implementation has a size limit). Each 4xx body must be the shared ErrorResponse shape.
export default function errorResponses(operation, options, context) {
  if (!operation || typeof operation !== 'object' || !operation.responses) return [];
  const pathKey = String(context.path[1] || '');
  const pathItem = resolvedRoot(context).paths && resolvedRoot(context).paths[pathKey];
  const params = [...((pathItem && pathItem.parameters) || []), ...(operation.parameters || [])];
  const secured = Array.isArray(operation.security) && operation.security.some((r) => r && Object.keys(r).length > 0);
  const needs = [['429', 'every operation can be rate limited', 'TooManyRequests']];
  if (secured) {
    needs.push(['401', 'the operation is secured', 'Unauthorized'], ['403', 'the operation is secured', 'Forbidden']);
  }
  if (/\{[^}]+\}/.test(pathKey)) needs.push(['404', 'the path has parameters', 'NotFound']);
  if (operation.requestBody) {
    needs.push(['400', 'the operation takes a request body', 'BadRequest'],
      ['413', 'the operation takes a request body, which can exceed the size limit', 'PayloadTooLarge']);
  } else if (params.length > 0) needs.push(['400', 'the operation takes parameters', 'BadRequest']);
  const results = [];
  for (const [code, why, name] of needs) {
    if (!operation.responses[code]) {
      results.push({
        message: `Missing ${code} response (${why}): add "'${code}': {$ref: <relative path>/components/responses/${name}.yaml}".`,
        path: [...context.path, 'responses'],
      });
    }
  }
  for (const [code, response] of Object.entries(operation.responses)) {
    if (!/^4\d\d$/.test(code) || !response || !response.content) continue;
    for (const [mediaType, media] of Object.entries(response.content)) {
      const schema = media && media.schema;
      // Spectral occasionally leaves an external $ref of a large multi-file source unresolved;
      // that is not a finding. The bundle, whose refs are all internal, is linted too and
      // checks the same response fully.
      if (schema && typeof schema.$ref === 'string') continue;
      const errors = schema && schema.properties && schema.properties.errors;
      if (!errors || errors.type !== 'array') {
        results.push({
          message: `Response ${code} must use the shared error body: $ref components/schemas/common/ErrorResponse.yaml (or a shared response under components/responses).`,
          path: [...context.path, 'responses', code, 'content', mediaType, 'schema'],
        });
      }
    }
  }
  return results;
}
