// Variants that break the conditional rules of an object schema (if/then/else,
// dependentRequired, not, oneOf): a valid candidate is first made to enter the rule (`satisfy`)
// or leave it (`unsatisfy`), then made to break what the rule asks.
import { parsePointer } from '@cloudapi/spec/json-pointer';
import { subschemas } from '@cloudapi/spec/schema-walk';
import { pointersOf, sampleFor, type Schemas, sub } from './schema-shape.js';

const isObject = (v: any) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A value other than a constant, of the same type. */
export const otherThan = (constant: any) => (typeof constant === 'boolean' ? !constant : typeof constant === 'number' ? constant + 1 : `${constant}-other`);

type Change = { value: any; fields: string[] } | null;

// Makes `value` match the simple object schema at `pointer` (required names, const properties,
// `not`, `allOf`); returns the new value and the fields involved, or null when it cannot.
function satisfy(s: Schemas, pointer: string, value: any, props: Record<string, string[]>): Change {
  const [schema, at] = s.resolved(pointer);
  if (!schema || typeof schema !== 'object' || !isObject(value)) return null;
  let v = { ...value };
  const fields = [];
  for (const name of schema.required || []) {
    fields.push(name);
    if (name in v) continue;
    const local = s.resolveNode((schema.properties || {})[name]);
    const sample = local && local.const !== undefined ? local.const : sampleFor(s, props, name, local);
    if (sample === undefined) return null;
    v[name] = sample;
  }
  for (const { key: name, schema: raw } of subschemas(schema, ['properties'])) {
    const property = s.resolveNode(raw);
    if (!(name! in v) || !property) continue;
    if (property.const !== undefined && v[name!] !== property.const) { v[name!] = property.const; fields.push(name); }
    if (Array.isArray(property.enum) && !property.enum.includes(v[name!])) { v[name!] = property.enum[0]; fields.push(name); }
  }
  const steps: [(pointer: string, v: any) => Change, string][] = [
    ...(schema.not ? [[(p: string, x: any) => unsatisfy(s, p, x, props), sub(at, 'not')] as [(pointer: string, v: any) => Change, string]] : []),
    ...pointersOf(schema, at, ['allOf']).map((p) => [(q: string, x: any) => satisfy(s, q, x, props), p] as [(pointer: string, v: any) => Change, string]),
  ];
  for (const [step, where] of steps) {
    const r = step(where, v);
    if (!r) return null;
    v = r.value; fields.push(...r.fields);
  }
  return { value: v, fields };
}

// The top-level fields of `value` that the schema at `pointer` finds fault with.
function fieldsFailing(s: Schemas, pointer: string, value: any): string[] {
  return s.views.validate('request', pointer, value).errors.map((e: any) => {
    const missing = e.params && (e.params.missingProperty || (e.keyword === 'additionalProperties' && e.params.additionalProperty));
    return missing || parsePointer(e.path)[0];
  }).filter(Boolean);
}

// Makes `value` fail the simple object schema at `pointer`; null when it cannot.
function unsatisfy(s: Schemas, pointer: string, value: any, props: Record<string, string[]>): Change {
  const [schema, at] = s.resolved(pointer);
  if (!schema || typeof schema !== 'object' || !isObject(value)) return null;
  const v = { ...value };
  const required = schema.required || [];
  if (required.length) {
    const present = required.filter((name: any) => name in v);
    if (present.length < required.length) return { value: v, fields: required.filter((name: any) => !(name in v)) };
    delete v[present[present.length - 1]];
    return { value: v, fields: [present[present.length - 1]] };
  }
  for (const { key: name, schema: raw } of subschemas(schema, ['properties'])) {
    const property = s.resolveNode(raw);
    if (!(name! in v) || !property) continue;
    if (property.const !== undefined) return { value: { ...v, [name!]: otherThan(property.const) }, fields: [String(name)] };
  }
  if (schema.not) return satisfy(s, sub(at, 'not'), v, props);
  for (const branch of pointersOf(schema, at, ['allOf'])) {
    const r = unsatisfy(s, branch, v, props);
    if (r) return r;
  }
  return null;
}

/** A variant breaking a conditional rule (a `Variant` of variants.ts). */
type Conditional = { rule: 'conditional'; fields: string[]; value: any; description: string };

// if/then/else: a candidate made to enter the `if` (or leave it), then made to break the branch.
function* ifThenElseVariants(s: Schemas, schema: any, at: string, candidates: any[], props: Record<string, string[]>): Generator<Conditional> {
  if (!schema.if) return;
  for (const [branch, enter] of [['then', satisfy], ['else', unsatisfy]] as const) {
    if (!schema[branch]) continue;
    for (const candidate of candidates) {
      const entered = enter(s, sub(at, 'if'), candidate, props);
      if (!entered || s.matches(sub(at, 'if'), entered.value) !== (branch === 'then')) continue;
      const broken = unsatisfy(s, sub(at, branch), entered.value, props);
      if (!broken || s.matches(sub(at, branch), broken.value)) continue;
      // The candidate may already break the branch through a field unsatisfy did not touch
      // (an AAAA example's target once its type becomes A): name that field too.
      const offending = [...broken.fields, ...fieldsFailing(s, sub(at, branch), broken.value)];
      yield { rule: 'conditional', fields: [...new Set([...offending, ...entered.fields])], value: broken.value, description: `breaks the if/${branch} rule (${[...new Set(offending)].join(', ')})` };
      break;
    }
  }
}

// dependentRequired: the field present, one it needs left out.
function* dependentRequiredVariants(s: Schemas, schema: any, candidates: any[], props: Record<string, string[]>): Generator<Conditional> {
  for (const [name, needed] of Object.entries(schema.dependentRequired || {}) as [string, string[]][]) {
    for (const candidate of candidates) {
      const v = { ...candidate };
      if (!(name in v)) {
        const sample = sampleFor(s, props, name);
        if (sample === undefined) continue;
        v[name] = sample;
      }
      const missing = needed[0] as string;
      delete v[missing];
      yield { rule: 'conditional', fields: [missing, name], value: v, description: `"${name}" without "${missing}" (dependentRequired)` };
      break;
    }
  }
}

// not: a candidate made to match what `not` forbids.
function* notVariants(s: Schemas, schema: any, at: string, candidates: any[], props: Record<string, string[]>): Generator<Conditional> {
  if (!schema.not) return;
  for (const candidate of candidates) {
    const r = satisfy(s, sub(at, 'not'), candidate, props);
    if (!r || !s.matches(sub(at, 'not'), r.value)) continue;
    yield { rule: 'conditional', fields: [...new Set(r.fields)], value: r.value, description: `matches what "not" forbids (${[...new Set(r.fields)].join(', ')})` };
    break;
  }
}

// oneOf: a candidate given what another branch requires matches both branches, or neither when
// the branches are closed: either way not exactly one.
function* oneOfVariants(s: Schemas, schema: any, at: string, candidates: any[], props: Record<string, string[]>): Generator<Conditional> {
  if (!Array.isArray(schema.oneOf)) return;
  const branches = pointersOf(schema, at, ['oneOf']);
  for (const candidate of candidates) {
    const own = branches.findIndex((b) => s.matches(b, candidate));
    if (own < 0) continue;
    for (const [i, branch] of branches.entries()) {
      if (i === own) continue;
      const r = satisfy(s, branch, candidate, props);
      if (!r || branches.filter((b) => s.matches(b, r.value)).length === 1) continue;
      const fields = [...new Set([...r.fields, ...Object.keys(candidate)])];
      yield { rule: 'conditional', fields, value: r.value, description: `matches ${s.matches(branch, r.value) ? 'two oneOf branches' : 'no oneOf branch'} (${[...new Set(r.fields)].join(', ')} added)` };
      return;
    }
  }
}

// Variants that break the conditional rules of the object schema at `pointer`.
export function* conditionalVariants(s: Schemas, pointer: string, candidates: any[], props: Record<string, string[]>): Generator<Conditional> {
  const [schema, at] = s.resolved(pointer);
  yield* ifThenElseVariants(s, schema, at, candidates, props);
  yield* dependentRequiredVariants(s, schema, candidates, props);
  yield* notVariants(s, schema, at, candidates, props);
  yield* oneOfVariants(s, schema, at, candidates, props);
}

