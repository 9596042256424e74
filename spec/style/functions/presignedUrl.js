// `x-presigned-url` says that an operation's answer holds a URL a client may use as it is, without
// a token (spec/DECISIONS.md, "Vendor extensions"): which field of the answer is the URL, and which
// fields of the request give the URL's HTTP method, the Content-Type its request must carry and
// the object it addresses. Tools (the contract kit) follow it, so every expression must name a
// field that exists: a renamed field would otherwise silently stop them.
import { atPointer } from './schemaWalk.js';

const HTTP_METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'HEAD', 'PATCH']);
// role → the runtime expression it takes and whether it is required
const ROLES = {
  url: { from: 'response', required: true },
  method: { from: 'request', required: true },
  content_type: { from: 'request', required: false },
  object: { from: 'request', required: false },
};

const jsonSchemaOf = (holder) => holder && holder.content && holder.content['application/json'] && holder.content['application/json'].schema;

export default function presignedUrl(operation, _options, context) {
  const value = operation && operation['x-presigned-url'];
  if (value === undefined) return [];
  const at = [...context.path, 'x-presigned-url'];
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [{ message: '"x-presigned-url" takes an object: {url: $response.body#/<field>, method: $request.body#/<field>, content_type: ..., object: ...}.', path: at }];
  const schemas = { response: jsonSchemaOf(operation.responses && operation.responses['200']), request: jsonSchemaOf(operation.requestBody) };
  const results = [];
  for (const [role, { from, required }] of Object.entries(ROLES)) {
    const expression = value[role];
    if (expression === undefined) {
      if (required) results.push({ message: `"x-presigned-url" needs "${role}": the ${from === 'response' ? 'field of the answer that holds the URL' : 'request field that gives the HTTP method'} ($${from}.body#/<field>).`, path: at });
      continue;
    }
    const m = typeof expression === 'string' && expression.match(new RegExp(`^\\$${from}\\.body#(/.+)$`));
    const field = m && atPointer(schemas[from], m[1]);
    if (!field) {
      results.push({ message: `"x-presigned-url" ${role} must be "$${from}.body#/<field>" naming a field of the ${from === 'response' ? '200 answer' : 'JSON request body'}.`, path: [...at, role] });
      continue;
    }
    if (role === 'method' && !(Array.isArray(field.enum) && field.enum.length && field.enum.every((e) => HTTP_METHODS.has(e)))) {
      results.push({ message: `"x-presigned-url" method names ${m[1]}, which must be an enum of HTTP methods (${[...HTTP_METHODS].join(', ')}): tools choose the URL's method from it.`, path: [...at, role] });
    }
  }
  for (const key of Object.keys(value)) {
    if (!(key in ROLES)) results.push({ message: `"x-presigned-url" has no "${key}": it takes ${Object.keys(ROLES).join(', ')}.`, path: [...at, key] });
  }
  return results;
}
