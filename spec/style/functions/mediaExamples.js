// Every request body and response body carries a named example: the mock serves it, the docs show
// it, the code samples are generated from it, and the tests validate it against its schema.
export default function mediaExamples(media, options, context) {
  if (!media || typeof media !== 'object') return [];
  const examples = media.examples;
  if (examples && typeof examples === 'object' && Object.keys(examples).length > 0) return [];
  const where = context.path.includes('requestBody') ? 'request body' : `response ${context.path[context.path.indexOf('responses') + 1]}`;
  return [{
    message: `The ${where} (${context.path[context.path.length - 1]}) has no examples: add an "examples" map with at least one named, realistic example that validates against the schema` +
      (media.example !== undefined ? ' (use the named "examples" map rather than "example", so the mock can serve it by name)' : '') + '.',
  }];
}
