// The docs-only copy of the bundle that Redoc renders. The spec is never edited for the docs:
// each build derives this copy from the bundle and adds what Redoc needs or does not show:
//
// - `x-codeSamples` on every operation: curl and @cloudapi/client, from the operation's examples;
// - a readable line for the vendor extensions Redoc ignores: `x-account-grants` and `x-charge` on
//   operations, `x-filterable` on schema properties (spec/DECISIONS.md section 5);
// - the page's logo (`info.x-logo`), inline so the page loads nothing.
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

// Schema keywords that hold subschemas, by shape (as in spec/lib/schema-views.mjs).
const MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SINGLES = ['items', 'additionalProperties', 'unevaluatedProperties', 'not', 'if', 'then', 'else', 'contains'];

// A property that is only a `$ref` takes its description from the target; the sibling
// description written here replaces it in Redoc, so it starts with the target's words.
function markFilterable(document, schema, seen = new Set()) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  for (const property of Object.values(schema.properties ?? {})) {
    if (property && property['x-filterable'] === true && !String(property.description ?? '').includes(FILTERABLE)) {
      const words = property.description ?? (property.$ref ? deref(document, property)[0]?.description : undefined);
      property.description = words ? `${words.trimEnd()} ${FILTERABLE}` : FILTERABLE;
    }
  }
  const walk = (sub) => markFilterable(document, sub, seen);
  for (const key of MAPS) Object.values(schema[key] ?? {}).forEach(walk);
  for (const key of LISTS) (Array.isArray(schema[key]) ? schema[key] : []).forEach(walk);
  for (const key of SINGLES) walk(schema[key]);
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
  }
  for (const schema of Object.values(document.components?.schemas ?? {})) markFilterable(document, schema);
  if (logo) document.info = { ...document.info, 'x-logo': logo };
  return document;
}
