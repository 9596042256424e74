// The first word of an operationId names what the operation does; it must fit the HTTP method
// (no `getX` on a POST), and the summary must open with the same verb so the two never drift.
export default function operationIdVerb(operation, options, context) {
  if (!operation || typeof operation !== 'object') return [];
  const method = String(context.path[context.path.length - 1]).toLowerCase();
  const allowed = options.verbs[method];
  if (!allowed) return [];
  const { operationId, summary } = operation;
  if (typeof operationId !== 'string') return []; // missing operationIds are reported by the built-in rules
  const verb = (operationId.match(/^[a-z]+/) || [''])[0];
  const results = [];
  if (!allowed.includes(verb)) {
    results.push({
      message: `operationId "${operationId}" of a ${method.toUpperCase()} must start with one of: ${allowed.join(', ')}. ` +
        `Rename it, or if "${verb}" is a new action verb for ${method.toUpperCase()}, add it to house-operation-id-verb in spec/.spectral.yaml.`,
      path: [...context.path, 'operationId'],
    });
  }
  if (typeof summary === 'string' && verb) {
    const first = summary.trim().split(/\s+/)[0].toLowerCase();
    if (first !== verb) {
      results.push({
        message: `summary "${summary}" must start with the operationId's verb "${verb[0].toUpperCase()}${verb.slice(1)}", e.g. "${verb[0].toUpperCase()}${verb.slice(1)} ...".`,
        path: [...context.path, 'summary'],
      });
    }
  }
  return results;
}
