// What the schemas at one place of a request body say about its value, read through the one
// schema walker: the bundle's schemas by pointer (`$ref`s followed, validated in the request
// view), and the shape of an object or array value (its properties, required names, items,
// conditional rules and constraints) through allOf and the anyOf/oneOf branches it takes.
import { escapeToken } from '@cloudapi/spec/json-pointer';
import { pointerGet } from '@cloudapi/spec/schema-views';
import { subschemas } from '@cloudapi/spec/schema-walk';
import { sampleValue } from './values.js';

/** The pointer of a subschema by keyword and key (`#/…/then`, `#/…/properties/a~1b`). */
export const sub = (pointer: string, ...parts: (string | number)[]) => `${pointer}/${parts.map(escapeToken).join('/')}`;
/** The pointers of a schema's subschemas under these keywords (`#/…/allOf/0`, `#/…/allOf/1`). */
export const pointersOf = (schema: any, at: string, keywords: string[]): string[] => [...subschemas(schema, keywords, at)].map((s) => s.pointer!);

/** The bundle's schemas as the steps read them: by pointer, `$ref`s followed, validated in the request view. */
export interface Schemas {
  views: any;
  matches: (pointer: string, value: any) => boolean;
  /** the schema at a pointer with its `$ref`s followed, and the pointer it was found at */
  resolved: (pointer: string) => [any, string];
  resolveNode: (node: any) => any;
}

export function schemasOf(views: any): Schemas {
  const { document } = views;
  const resolved = (pointer: string): [any, string] => {
    let at = pointer;
    let node = pointerGet(document, at);
    for (let i = 0; node && typeof node.$ref === 'string' && i < 32; i++) { at = node.$ref; node = pointerGet(document, at); }
    return [node, at];
  };
  return {
    views,
    matches: (pointer, value) => views.validate('request', pointer, value).valid,
    resolved,
    resolveNode: (node) => (node && typeof node.$ref === 'string' ? resolved(node.$ref)[0] : node),
  };
}

/** What the schemas at a place say about an object or array value. */
export interface Shape {
  /** property name → the pointers of its schemas */
  properties: Record<string, string[]>;
  required: Set<string>;
  /** no field beyond those declared */
  closed: boolean;
  items: string[];
  /** the pointers of the schemas carrying conditional rules */
  conditionals: string[];
  /** the first value of each keyword across the schemas */
  constraints: Record<string, any>;
}

const emptyShape = (): Shape => ({ properties: {}, required: new Set(), closed: false, items: [], conditionals: [], constraints: {} });

// Through allOf, and the anyOf/oneOf branches the value matches (or all but null ones, if none does).
export function shapeOf(s: Schemas, pointers: string[], value: any, into: Shape = emptyShape(), depth = 0): Shape {
  for (const pointer of pointers) {
    const [schema, at] = s.resolved(pointer);
    if (!schema || typeof schema !== 'object' || depth > 16) continue;
    for (const property of subschemas(schema, ['properties'], at)) (into.properties[property.key!] ??= []).push(property.pointer!);
    for (const name of schema.required || []) into.required.add(name);
    if (schema.additionalProperties === false || schema.unevaluatedProperties === false) into.closed = true;
    for (const items of subschemas(schema, ['items'], at)) if (typeof items.schema === 'object') into.items.push(items.pointer!);
    if (schema.if || schema.dependentRequired || schema.not || schema.oneOf) into.conditionals.push(at);
    for (const [key, v] of Object.entries(schema)) if (!(key in into.constraints)) into.constraints[key] = v;
    shapeOf(s, pointersOf(schema, at, ['allOf']), value, into, depth + 1);
    for (const key of ['anyOf', 'oneOf']) {
      const branches = pointersOf(schema, at, [key]);
      const matching = branches.filter((b) => s.matches(b, value));
      shapeOf(s, matching.length ? matching : branches.filter((b) => s.resolved(b)[0]?.type !== 'null'), value, into, depth + 1);
    }
  }
  return into;
}

export function sampleFor(s: Schemas, props: Record<string, string[]>, name: string, fallbackSchema?: any) {
  for (const pointer of props[name] || []) {
    const value = sampleValue(s.resolved(pointer)[0], s.resolveNode);
    if (value !== undefined && s.matches(pointer, value)) return value;
  }
  return fallbackSchema ? sampleValue(fallbackSchema, s.resolveNode) : undefined;
}

