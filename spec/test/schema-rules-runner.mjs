// Shared by the schema-rules-*.test.mjs files: each lists cases
// [view, pointer, rule, value, valid?] (view "request" or "response", pointer a JSON pointer into
// the bundle) and this runs one test per case, showing the validation errors when a case fails.
import { describe, expect, it } from 'vitest';
import { createSchemaViews } from '../lib/schema-views.mjs';
import { loadBundle } from './helpers.mjs';

export const bundle = loadBundle();
export const views = createSchemaViews(bundle);
export const schema = (name) => `#/components/schemas/${name}`;
export const parameter = (name) => `#/components/parameters/${name}/schema`;
export const text = (n) => 'x'.repeat(n);

export function describeSchemaRules(title, cases) {
  describe(title, () => {
    it.each(cases.map(([view, pointer, rule, value, valid]) => [pointer.replace('#/components/', ''), rule, valid ? 'accepts' : 'rejects', view, pointer, value, valid]))(
      '%s: %s (%s)',
      (_, rule, __, view, pointer, value, valid) => {
        const result = views.validate(view, pointer, value);
        expect(result.valid, JSON.stringify({ value, errors: result.errors.map((e) => e.message) })).toBe(valid);
      },
    );
  });
}
