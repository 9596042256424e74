// The docs-only copy of the bundle that Redoc renders. The spec is never edited for the docs:
// each build derives this copy from the bundle and adds what Redoc needs or does not show:
//
// - `x-codeSamples` on every operation: curl and @cloudapi/client, from the operation's examples;
// - a readable line for the vendor extensions Redoc ignores: `x-account-grants` and `x-charge` on
//   operations, `x-filterable` on schema properties (spec/DECISIONS.md section 5);
// - each list's X-Filter shown with its JSON's schema: Redoc renders a parameter's `schema` or its
//   `content`, not a `contentSchema`, and resolves no `$ref` outside `components.schemas` (it
//   shows `any`), so the copy describes the header's JSON as `content` and holds the filter
//   schemas among the component schemas;
// - the page's logo (`info.x-logo`), inline so the page loads nothing.
import { filterSchemaOf, withFilterSchemasAsComponents } from '@cloudapi/spec/filters';
import { walkSchema } from '@cloudapi/spec/schema-walk';
import { deref, operations } from '@cloudapi/spec/walk';
import { codeSamples } from './samples.mjs';

/** Words for one grant of `x-account-grants`. */
export function describeGrant(grant) {
  const permission = /^(\w+):(read_only|read_write)$/.exec(grant);
  if (permission) return `\`${permission[2]}\` permission on the ${permission[1]} involved (\`${grant}\`)`;
  if (grant === 'unrestricted_user') return 'an unrestricted user (`unrestricted_user`)';
  const add = /^add_(\w+)$/.exec(grant);
  if (add) return `the grant to add ${add[1]} (\`${grant}\`)`;
  return `\`${grant}\``;
}

/** The lines that state an operation's vendor extensions in words, or []. */
export function extensionLines(operation) {
  const lines = [];
  const grants = operation['x-account-grants'];
  if (Array.isArray(grants) && grants.length) {
    lines.push(`**Account grants:** besides the token's scopes, the user needs ${grants.map(describeGrant).join(' and ')}.`);
  }
  if (operation['x-charge'] === true) {
    lines.push('**Charge:** this operation starts or adds a charge to the account.');
  }
  return lines;
}

const FILTERABLE = '**Filterable.**';

// A property that is only a `$ref` takes its description from the target; the sibling
// description written here replaces it in Redoc, so it starts with the target's words. Every
// schema below `schema`, through every keyword (the spec's one walker), is looked at.
function markFilterable(document, schema) {
  walkSchema(schema, (node) => {
    for (const property of Object.values(node.properties ?? {})) {
      if (property && property['x-filterable'] === true && !String(property.description ?? '').includes(FILTERABLE)) {
        const words = property.description ?? (property.$ref ? deref(document, property)[0]?.description : undefined);
        property.description = words ? `${words.trimEnd()} ${FILTERABLE}` : FILTERABLE;
      }
    }
  });
}

/**
 * An X-Filter parameter as Redoc shows a JSON parameter: its `contentSchema` as the schema of
 * `content: application/json`, its examples as named examples of that JSON. Other parameters as
 * they are.
 */
export function filterParameterForRedoc(parameter) {
  const schema = filterSchemaOf(parameter);
  if (!schema) return parameter;
  const { schema: text, ...rest } = parameter;
  const examples = Object.fromEntries((text.examples ?? []).map((example, i) => [`example${i + 1}`, { value: JSON.parse(example) }]));
  return { ...rest, content: { 'application/json': { schema: { $ref: schema.pointer }, ...(Object.keys(examples).length ? { examples } : {}) } } };
}

/**
 * @param {object} bundle the spec's bundle (not modified)
 * @param {{ logo?: { url: string, altText: string, href?: string } }} [options]
 */
export function deriveDocsDocument(bundle, { logo } = {}) {
  const document = structuredClone(bundle);
  for (const op of operations(document)) {
    const lines = extensionLines(op.operation);
    if (lines.length) op.operation.description = [...lines, op.operation.description ?? ''].join('\n\n').trimEnd();
    op.operation['x-codeSamples'] = codeSamples(document, op);
    if (op.operation.parameters) op.operation.parameters = op.operation.parameters.map(filterParameterForRedoc);
  }
  for (const schema of Object.values(document.components?.schemas ?? {})) markFilterable(document, schema);
  if (logo) document.info = { ...document.info, 'x-logo': logo };
  return withFilterSchemasAsComponents(document);
}
