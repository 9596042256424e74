// The docs-only copy of the bundle: samples on every operation, vendor extensions in words,
// the spec's bundle itself untouched.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { filterSchemaOf } from '@cloudapi/spec/filters';
import { operations } from '@cloudapi/spec/walk';
import { deriveDocsDocument, describeGrant, extensionLines, filterParameterForRedoc } from '../src/derive.mjs';
import { codeSamples } from '../src/samples.mjs';

const require = createRequire(import.meta.url);
const bundleText = readFileSync(require.resolve('@cloudapi/spec/openapi.json'), 'utf8');
const bundle = JSON.parse(bundleText);
const logo = { url: 'data:image/svg+xml,%3Csvg%2F%3E', altText: 'logo' };
const derived = deriveDocsDocument(bundle, { logo });
const derivedOps = [...operations(derived)];

describe('deriveDocsDocument', () => {
  it('leaves the bundle as it was', () => {
    expect(JSON.stringify(bundle, null, 2)).toBe(bundleText.trimEnd());
    expect(derived).not.toBe(bundle);
  });

  it('keeps every operation and gives each its curl and @cloudapi/client samples', () => {
    const original = [...operations(bundle)];
    expect(derivedOps.map((op) => `${op.method} ${op.path}`)).toEqual(original.map((op) => `${op.method} ${op.path}`));
    for (const [i, op] of derivedOps.entries()) {
      expect(op.operation['x-codeSamples'], `${op.method} ${op.path}`).toEqual(codeSamples(bundle, original[i]));
    }
  });

  it('states x-account-grants and x-charge in words at the top of the description, and nothing else changes', () => {
    const original = [...operations(bundle)];
    let grants = 0;
    let charges = 0;
    for (const [i, op] of derivedOps.entries()) {
      const before = original[i].operation;
      const { 'x-codeSamples': samples, description, parameters, ...rest } = op.operation;
      const { description: beforeDescription, parameters: beforeParameters, ...beforeRest } = before;
      expect(rest, `${op.method} ${op.path}`).toEqual(beforeRest);
      // X-Filter as Redoc reads it, its schema among the component schemas (the next test).
      const asShown = beforeParameters && JSON.parse(JSON.stringify(beforeParameters.map(filterParameterForRedoc)).replaceAll('"#/components/x-filter-schemas/', '"#/components/schemas/'));
      expect(parameters, `${op.method} ${op.path}`).toEqual(asShown);
      const lines = extensionLines(before);
      expect(description).toBe(lines.length ? [...lines, beforeDescription].join('\n\n').trimEnd() : beforeDescription);
      for (const grant of before['x-account-grants'] ?? []) { grants += 1; expect(description).toContain(`\`${grant}\``); }
      if (before['x-charge']) { charges += 1; expect(description).toMatch(/^\*\*(Account grants|Charge):\*\*/); }
    }
    expect(grants).toBeGreaterThan(0);
    expect(charges).toBeGreaterThan(0);
  });

  it('shows each list\'s X-Filter to Redoc as JSON content whose schema is the header\'s contentSchema, other parameters untouched', () => {
    let lists = 0;
    for (const [i, op] of [...operations(bundle)].entries()) {
      for (const [j, parameter] of (op.operation.parameters ?? []).entries()) {
        const shown = derivedOps[i].operation.parameters[j];
        if (parameter.name !== 'X-Filter') { expect(shown).toEqual(parameter); continue; }
        lists += 1;
        expect(shown.schema, op.operation.operationId).toBeUndefined();
        // Among the component schemas, where Redoc resolves a reference (it shows `any` for one into an extension).
        const name = filterSchemaOf(parameter).name;
        expect(shown.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${name}` });
        expect(derived.components.schemas[name].title).toBe(bundle.components['x-filter-schemas'][name].title);
        expect(Object.values(shown.content['application/json'].examples).map((e) => e.value)).toEqual(parameter.schema.examples.map((e) => JSON.parse(e)));
        expect(shown.description).toBe(parameter.description);
      }
    }
    expect(lists).toBeGreaterThan(5);
  });

  it('words each kind of grant', () => {
    expect(describeGrant('add_volumes')).toBe('the grant to add volumes (`add_volumes`)');
    expect(describeGrant('unrestricted_user')).toBe('an unrestricted user (`unrestricted_user`)');
    expect(describeGrant('volume:read_only')).toBe('`read_only` permission on the volume involved (`volume:read_only`)');
    expect(describeGrant('something_new')).toBe('`something_new`');
    expect(extensionLines({ 'x-account-grants': ['add_volumes', 'compute:read_write'], 'x-charge': true })).toEqual([
      "**Account grants:** besides the token's scopes, the user needs the grant to add volumes (`add_volumes`) and "
        + '`read_write` permission on the compute involved (`compute:read_write`).',
      '**Charge:** this operation starts or adds a charge to the account.',
    ]);
    expect(extensionLines({})).toEqual([]);
  });

  it('marks x-filterable properties as filterable in their description, once', () => {
    let marked = 0;
    for (const [name, schema] of Object.entries(bundle.components.schemas)) {
      for (const [property, value] of Object.entries(schema.properties ?? {})) {
        const after = derived.components.schemas[name].properties[property];
        const words = value.description ?? (value.$ref ? bundle.components.schemas[value.$ref.split('/').pop()].description : undefined);
        if (value['x-filterable']) { marked += 1; expect(after.description, `${name}.${property}`).toBe(`${words.trimEnd()} **Filterable.**`); }
        else expect(after.description, `${name}.${property}`).toBe(value.description);
      }
    }
    expect(marked).toBeGreaterThan(0);
    const twice = deriveDocsDocument(derived);
    expect(twice.components.schemas).toEqual(derived.components.schemas);
  });

  it('adds the logo and only the docs extensions Redoc reads', () => {
    expect(derived.info['x-logo']).toEqual(logo);
    expect(bundle.info['x-logo']).toBeUndefined();
    const added = new Set();
    const walk = (a, b) => {
      if (!a || typeof a !== 'object') return;
      for (const key of Object.keys(a)) {
        if (key.startsWith('x-') && !(b && typeof b === 'object' && key in b)) added.add(key);
        walk(a[key], b?.[key]);
      }
    };
    walk(derived, bundle);
    expect([...added].sort()).toEqual(['x-codeSamples', 'x-logo']);
  });
});
