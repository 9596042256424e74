// A response schema whose conditional branches fast-json-stringify cannot merge is compiled
// without its conditionals, which writes the same fields (core/http/serialization.ts).
import { expect, it } from 'vitest';
import { ResponseSerialization } from '../../src/core/http/serialization.js';

it('compiles a schema whose if/then/else branches cannot be merged, and writes the declared fields', () => {
  const document = {
    openapi: '3.1.0',
    components: {
      schemas: {
        Record: {
          type: 'object',
          // `tag` a string here and an integer or a boolean in the branches: they cannot be merged.
          properties: { type: { type: 'string' }, tag: { type: 'string' }, if: { type: 'string' } },
          if: { properties: { type: { const: 'CAA' } } },
          then: { properties: { tag: { type: 'integer' } } },
          else: { properties: { tag: { type: 'boolean' } } },
        },
      },
    },
  };
  const write = new ResponseSerialization(document).forPointer('/components/schemas/Record');
  expect(JSON.parse(write({ type: 'CAA', tag: 'issue', if: 'a property named if', extra: 1 }))).toEqual({ type: 'CAA', tag: 'issue', if: 'a property named if' });
  expect(JSON.parse(write({ type: 'A', tag: 'x', if: 'kept' }))).toEqual({ type: 'A', tag: 'x', if: 'kept' });
});
