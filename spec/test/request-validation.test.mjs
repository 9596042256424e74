// The request validators' check of any schema of the bundle (what a handler uses for a value it
// builds itself, as the server's domain records do).
import { describe, expect, it } from 'vitest';
import { RequestValidation } from '../lib/request-validation.mjs';

const document = {
  openapi: '3.1.0',
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', maxLength: 3 }, size: { type: 'integer', default: 20 }, id: { type: 'integer', readOnly: true } },
        additionalProperties: false,
      },
    },
  },
};

describe('RequestValidation.forSchema', () => {
  const check = new RequestValidation(document).forSchema('#/components/schemas/Thing');

  it('names the field and the rule it breaks', () => {
    expect(check({ name: 'long' })).toEqual([{ field: 'name', reason: expect.stringMatching(/at most 3/) }]);
    expect(check({})).toEqual([{ field: 'name', reason: expect.stringMatching(/required/) }]);
  });

  it('checks the request view: a read-only field may not be sent', () => {
    expect(check({ name: 'ok', id: 1 }).map((p) => p.field)).toEqual(['id']);
  });

  it('accepts a valid value and leaves it as it is (defaults fill a copy)', () => {
    const value = { name: 'ok' };
    expect(check(value)).toEqual([]);
    expect(value).toEqual({ name: 'ok' });
  });
});
