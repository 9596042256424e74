// A serializer is compiled with only the parts of the bundle its schema reaches through `$ref`s
// (core/http/serialization.ts): references followed through each other, into a schema's own
// parts and into list items, around a cycle, and the bundle itself left as it was.
import { expect, it } from 'vitest';
import { ResponseSerialization } from '../../src/core/http/serialization.js';

const document = {
  openapi: '3.1.0',
  paths: {
    '/pages': { get: { responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Page' } } } } } } },
  },
  components: {
    schemas: {
      Page: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Item' } }, tree: { $ref: '#/components/schemas/Tree' } } },
      // `name` reaches a part of another schema, `kind` an item of a list of schemas.
      Item: { type: 'object', properties: { name: { $ref: '#/components/schemas/Named/properties/name' }, kind: { $ref: '#/components/schemas/Kinds/anyOf/0' }, secret: { type: 'string', writeOnly: true } } },
      Named: { type: 'object', properties: { name: { type: 'string' }, unused: { $ref: '#/components/schemas/Unreached' } } },
      Kinds: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'integer' }] },
      Tree: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } },
      Unreached: { type: 'object', properties: { never: { $ref: '#/components/schemas/Missing' } } },
    },
  },
};

it('writes what the schema declares, through references to parts, list items and around a cycle', () => {
  const before = structuredClone(document);
  const write = new ResponseSerialization(document).forPointer('#/paths/~1pages/get/responses/200/content/application~1json/schema');
  const value = {
    data: [{ name: 'first', kind: 'a', secret: 'never written', extra: 1 }],
    tree: { label: 'root', children: [{ label: 'leaf', children: [], extra: true }] },
  };
  expect(JSON.parse(write(value))).toEqual({
    data: [{ name: 'first', kind: 'a' }],
    tree: { label: 'root', children: [{ label: 'leaf', children: [] }] },
  });
  expect(document).toEqual(before);
});
