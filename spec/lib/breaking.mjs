// Compares two bundles of the API and lists the changes that can break a client written against
// the first one. Each finding is { level, code, operation, where, message }:
//
//   level "breaking"  a client that worked before can now fail (an operation gone, a newly
//                     required field, a response field removed or made optional, a narrower type)
//   level "warning"   a client may misbehave (a response enum gained a value an exhaustive
//                     switch does not handle)
//
// Schemas are compared as clients see them: $refs followed, allOf merged, the properties of
// oneOf/anyOf branches united (a field counts as required when every branch requires it).
// Conditional rules (if/then, not) are not compared; see CONTRIBUTING.md for the limits.
import { pointerGet } from './schema-views.mjs';
import { bodiesOf, deref, operations } from './walk.mjs';

const MAX_DEPTH = 8;
const JSON_MEDIA = /^application\/(.+\+)?json$/;

/** What a schema says about a value, flattened: types, enum, properties, required, bounds. */
function flatten(document, raw, seen = new Set()) {
  const out = { types: null, enum: null, props: {}, required: new Set(), closed: false, items: [], prefixItems: [], bounds: {}, pattern: null, format: null };
  const visit = (node, requiredHere) => {
    const [schema] = deref(document, node);
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    if (schema.type !== undefined) {
      const types = new Set([].concat(schema.type));
      out.types = out.types ? new Set([...out.types].filter((t) => types.has(t))) : types;
    }
    if (schema.const !== undefined) out.enum = [schema.const];
    if (Array.isArray(schema.enum)) out.enum = schema.enum;
    for (const [name, sub] of Object.entries(schema.properties || {})) (out.props[name] ??= []).push(sub);
    if (requiredHere) for (const name of schema.required || []) out.required.add(name);
    if (schema.additionalProperties === false || schema.unevaluatedProperties === false) out.closed = true;
    if (schema.items && typeof schema.items === 'object') out.items.push(schema.items);
    (schema.prefixItems || []).forEach((item, i) => (out.prefixItems[i] ??= []).push(item));
    for (const key of ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'multipleOf']) {
      if (typeof schema[key] === 'number') out.bounds[key] = schema[key];
    }
    if (schema.pattern) out.pattern = schema.pattern;
    if (schema.format) out.format = schema.format;
    for (const part of schema.allOf || []) visit(part, requiredHere);
    const branches = [...(schema.oneOf || []), ...(schema.anyOf || [])];
    if (branches.length) {
      // A field is required only when every alternative requires it.
      const each = branches.map((branch) => flatten(document, branch, new Set(seen)));
      for (const b of each) for (const [name, subs] of Object.entries(b.props)) (out.props[name] ??= []).push(...subs);
      if (requiredHere) {
        for (const name of each.reduce((acc, b) => acc.filter((n) => b.required.has(n)), [...each[0].required])) out.required.add(name);
      }
      const types = each.every((b) => b.types) ? new Set(each.flatMap((b) => [...b.types])) : null;
      if (types) out.types = out.types ? new Set([...out.types].filter((t) => types.has(t))) : types;
      if (each.every((b) => b.enum)) out.enum = [...new Set(each.flatMap((b) => b.enum))];
    }
  };
  visit(raw, true);
  return out;
}

const lower = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems'];
const upper = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems'];
const show = (values) => values.map((v) => JSON.stringify(v)).join(', ');
const typeList = (types) => [...types].join(' or ');
// A value of type `t` satisfies a schema of `types` (an integer is a number).
const fits = (t, types) => types.has(t) || (t === 'integer' && types.has('number'));
const sameValue = (v) => (w) => JSON.stringify(w) === JSON.stringify(v);

/**
 * Compares the schema a value must satisfy before and after, from the side of the client that
 * sends it (`request`) or reads it (`response`), and reports through `report(code, where, message)`.
 */
function compareSchemas(ctx, side, before, after, where, depth = 0, pairs = new Set()) {
  if (depth > MAX_DEPTH || before === undefined || after === undefined) return;
  const key = `${side}|${where}`;
  if (pairs.has(key)) return;
  pairs.add(key);
  const a = flatten(ctx.before, before);
  const b = flatten(ctx.after, after);
  const field = where || 'the body';

  if (side === 'request') {
    // What the server accepts must not shrink.
    if (a.types && b.types) {
      const lost = [...a.types].filter((t) => !fits(t, b.types));
      if (lost.length) ctx.report('breaking', 'request-type-narrowed', where, `${field} no longer accepts ${lost.join(', ')} (now ${typeList(b.types)})`);
    } else if (!a.types && b.types) ctx.report('breaking', 'request-type-narrowed', where, `${field} now must be ${typeList(b.types)}`);
    if (b.enum && (!a.enum || a.enum.some((v) => !b.enum.some(sameValue(v))))) {
      const removed = a.enum ? a.enum.filter((v) => !b.enum.some(sameValue(v))) : null;
      ctx.report('breaking', 'request-enum-narrowed', where, removed ? `${field} no longer accepts ${show(removed)}` : `${field} is now limited to ${show(b.enum)}`);
    }
    for (const k of lower) if (b.bounds[k] !== undefined && (a.bounds[k] === undefined || b.bounds[k] > a.bounds[k])) ctx.report('breaking', 'request-range-narrowed', where, `${field}: ${k} ${a.bounds[k] ?? 'none'} → ${b.bounds[k]}`);
    for (const k of upper) if (b.bounds[k] !== undefined && (a.bounds[k] === undefined || b.bounds[k] < a.bounds[k])) ctx.report('breaking', 'request-range-narrowed', where, `${field}: ${k} ${a.bounds[k] ?? 'none'} → ${b.bounds[k]}`);
    if (b.pattern && b.pattern !== a.pattern) ctx.report('breaking', 'request-pattern-changed', where, `${field} must now match ${b.pattern}${a.pattern ? ` (was ${a.pattern})` : ''}`);
    if (b.format && b.format !== a.format) ctx.report('breaking', 'request-format-changed', where, `${field} must now be format ${b.format}${a.format ? ` (was ${a.format})` : ''}`);
    for (const name of b.required) {
      if (!a.required.has(name)) ctx.report('breaking', 'request-property-required', join(where, name), `${join(where, name)} is now required${a.props[name] ? '' : ' (a new field)'}`);
    }
    if (b.closed) {
      for (const name of Object.keys(a.props)) {
        if (!b.props[name]) ctx.report('breaking', 'request-property-removed', join(where, name), `${join(where, name)} was removed and the body rejects unknown fields`);
      }
    }
  } else {
    // What the server may answer must not grow, and what clients rely on must stay.
    if (a.types && b.types) {
      const gained = [...b.types].filter((t) => !fits(t, a.types));
      if (gained.length) ctx.report('breaking', 'response-type-widened', where, `${field} may now be ${gained.join(', ')} (was ${typeList(a.types)})`);
    } else if (a.types && !b.types) ctx.report('breaking', 'response-type-widened', where, `${field} is no longer typed (was ${typeList(a.types)})`);
    if (a.enum && (!b.enum || b.enum.some((v) => !a.enum.some(sameValue(v))))) {
      const added = b.enum ? b.enum.filter((v) => !a.enum.some(sameValue(v))) : null;
      ctx.report('warning', 'response-enum-widened', where, added ? `${field} may now be ${show(added)}: clients that switch over every value need a case for it` : `${field} is no longer limited to ${show(a.enum)}`);
    }
    for (const name of Object.keys(a.props)) {
      if (!b.props[name]) ctx.report('breaking', 'response-property-removed', join(where, name), `${join(where, name)} was removed from the response`);
      else if (a.required.has(name) && !b.required.has(name)) ctx.report('breaking', 'response-property-optional', join(where, name), `${join(where, name)} is no longer always present`);
    }
  }
  for (const name of Object.keys(a.props)) {
    if (b.props[name]) compareSchemas(ctx, side, merged(a.props[name]), merged(b.props[name]), join(where, name), depth + 1, pairs);
  }
  if (a.items.length && b.items.length) compareSchemas(ctx, side, merged(a.items), merged(b.items), `${where || ''}[]`, depth + 1, pairs);
  a.prefixItems.forEach((items, i) => {
    if (b.prefixItems[i]) compareSchemas(ctx, side, merged(items), merged(b.prefixItems[i]), `${where || ''}[${i}]`, depth + 1, pairs);
  });
}

const merged = (schemas) => (schemas.length === 1 ? schemas[0] : { allOf: schemas });
const join = (where, name) => (where ? `${where}.${name}` : name);

function securityOf(operation) {
  const requirements = operation.security || [];
  if (requirements.length === 0) return { kind: 'public', scopes: new Set() };
  const optional = requirements.some((r) => Object.keys(r).length === 0);
  return { kind: optional ? 'optional' : 'required', scopes: new Set(requirements.flatMap((r) => Object.values(r).flat())) };
}

function jsonBody(document, op, kind) {
  return bodiesOf(document, op).filter((b) => b.kind === kind && JSON_MEDIA.test(b.mediaType));
}

/** The findings of comparing `before` with `after`, and the operations added. */
export function compareDocuments(before, after) {
  const findings = [];
  const opsAfter = new Map([...operations(after)].map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));
  const opsBefore = new Map([...operations(before)].map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));
  for (const [id, a] of opsBefore) {
    const report = (level, code, where, message) => findings.push({ level, code, operation: id, operationId: a.operation.operationId, where, message });
    const b = opsAfter.get(id);
    if (!b) { report('breaking', 'operation-removed', '', `${id} (${a.operation.operationId}) was removed`); continue; }
    const ctx = { before, after, report: (level, code, where, message) => report(level, code, where, message) };

    const sa = securityOf(a.operation);
    const sb = securityOf(b.operation);
    const order = { public: 0, optional: 1, required: 2 };
    if (order[sb.kind] > order[sa.kind]) report('breaking', 'security-tightened', '', `authentication went from ${sa.kind} to ${sb.kind}`);
    const newScopes = [...sb.scopes].filter((s) => !sa.scopes.has(s));
    if (newScopes.length && sb.kind !== 'public') report('breaking', 'scope-added', '', `the token now needs ${newScopes.join(', ')}`);

    const okBefore = Object.keys(a.operation.responses || {}).filter((c) => /^2/.test(c));
    const okAfter = Object.keys(b.operation.responses || {}).filter((c) => /^2/.test(c));
    for (const code of okBefore) if (!okAfter.includes(code)) report('breaking', 'success-status-removed', `response ${code}`, `success status ${code} is no longer answered (now ${okAfter.join(', ') || 'none'})`);

    const paramsBefore = new Map(a.parameters.map((p) => [`${p.in}:${p.name}`, p]));
    for (const p of b.parameters) {
      const old = paramsBefore.get(`${p.in}:${p.name}`);
      if (p.required && !(old && old.required)) report('breaking', 'parameter-required', `${p.in} parameter ${p.name}`, `${p.in} parameter "${p.name}" is now required${old ? '' : ' (a new parameter)'}`);
      if (old && old.schema && p.schema) compareSchemas({ ...ctx, report: (level, code, where, message) => report(level, code.replace(/^request-/, 'parameter-'), `${p.in} parameter ${p.name}`, message.replace('the body', `${p.in} parameter "${p.name}"`)) }, 'request', old.schema, p.schema, '');
    }

    const bodyBefore = a.operation.requestBody && deref(before, a.operation.requestBody)[0];
    const bodyAfter = b.operation.requestBody && deref(after, b.operation.requestBody)[0];
    if (bodyAfter && bodyAfter.required && !(bodyBefore && bodyBefore.required)) report('breaking', 'request-body-required', 'request body', 'a request body is now required');
    const [reqA] = jsonBody(before, a, 'request');
    const [reqB] = jsonBody(after, b, 'request');
    if (reqA && reqB) compareSchemas(ctx, 'request', pointerGet(before, reqA.schemaPointer), pointerGet(after, reqB.schemaPointer), '');

    for (const code of okBefore.filter((c) => okAfter.includes(c))) {
      const [resA] = jsonBody(before, a, 'response').filter((r) => r.status === code);
      const [resB] = jsonBody(after, b, 'response').filter((r) => r.status === code);
      if (resA && !resB) report('breaking', 'response-media-removed', `response ${code}`, `response ${code} is no longer JSON`);
      if (resA && resB) compareSchemas(ctx, 'response', pointerGet(before, resA.schemaPointer), pointerGet(after, resB.schemaPointer), '');
    }
  }
  const added = [...opsAfter.keys()].filter((id) => !opsBefore.has(id));
  return { findings, added };
}
