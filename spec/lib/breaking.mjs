// Compares two bundles of the API and lists the changes that can break a client written against
// the first one. Each finding is { level, code, operation, operationId, where, message, pointer }:
//
//   level "breaking"  a client that worked before can now fail (an operation gone, a newly
//                     required field, a response field removed or made optional, a narrower type)
//   level "warning"   a client may misbehave (a response enum gained a value an exhaustive
//                     switch does not handle)
//   level "info"      with `{ all: true }` only (the API changelog, lib/changelog.mjs): what
//                     changed without breaking anyone (a field or parameter added, something
//                     deprecated, a request field the server no longer reads)
//
// Schemas are compared as clients see them: $refs followed, allOf merged, the properties of
// oneOf/anyOf branches united (a field counts as required when every branch requires it).
// Conditional rules (if/then, not) are not compared; see CONTRIBUTING.md for the limits.
//
// `pointer` is where the change is in the second bundle: the schema, the `required` list or the
// keyword that changed, or the operation; for something removed, the object that lost it.
// lib/sources.mjs turns it into the source file and line a designer edits.
import { escapePointerPart, pointerGet, pointerOf } from './schema-views.mjs';
import { bodiesOf, deref, operations } from './walk.mjs';

const MAX_DEPTH = 8;
const JSON_MEDIA = /^application\/(.+\+)?json$/;

/**
 * What a schema says about a value, flattened: types, enum, properties, required, bounds, with
 * the pointer of where each was said (`at` the schema itself, `keywordAt` each keyword,
 * `requiredAt` the `required` list naming a field, `propAt` each property's subschemas).
 */
function flatten(document, raw, seen = new Set(), pointer = undefined) {
  const out = {
    types: null, enum: null, props: {}, required: new Set(), deprecated: new Set(), closed: false, items: [], prefixItems: [], bounds: {}, pattern: null, format: null,
    at: undefined, keywordAt: {}, requiredAt: new Map(), requiredLists: new Set(), propertiesAt: undefined, propOwner: {}, propAt: {}, itemsAt: [], prefixItemsAt: [],
  };
  const visit = (node, requiredHere, nodePointer) => {
    if (node?.[PART_POINTERS]) {
      node.allOf.forEach((part, i) => visit(part, requiredHere, node[PART_POINTERS][i]));
      return;
    }
    const [schema, at] = deref(document, node, nodePointer);
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    out.at ??= at;
    const said = (key) => { if (at) out.keywordAt[key] = `${at}/${key}`; };
    if (schema.type !== undefined) {
      const types = new Set([].concat(schema.type));
      out.types = out.types ? new Set([...out.types].filter((t) => types.has(t))) : types;
      said('type');
    }
    if (schema.const !== undefined) { out.enum = [schema.const]; said('const'); out.keywordAt.enum = out.keywordAt.const; }
    if (Array.isArray(schema.enum)) { out.enum = schema.enum; said('enum'); }
    if (at && schema.properties) out.propertiesAt ??= `${at}/properties`;
    for (const [name, sub] of Object.entries(schema.properties || {})) {
      if (deref(document, sub)[0]?.deprecated === true) out.deprecated.add(name);
      (out.props[name] ??= []).push(sub);
      (out.propAt[name] ??= []).push(at && `${at}/properties/${escapePointerPart(name)}`);
      out.propOwner[name] ??= at;
    }
    if (requiredHere && Array.isArray(schema.required)) {
      if (at) out.requiredLists.add(at);
      schema.required.forEach((name, i) => {
        out.required.add(name);
        if (at && !out.requiredAt.has(name)) out.requiredAt.set(name, `${at}/required/${i}`);
      });
    }
    if (schema.additionalProperties === false || schema.unevaluatedProperties === false) out.closed = true;
    if (schema.items && typeof schema.items === 'object') { out.items.push(schema.items); out.itemsAt.push(at && `${at}/items`); }
    (schema.prefixItems || []).forEach((item, i) => {
      (out.prefixItems[i] ??= []).push(item);
      (out.prefixItemsAt[i] ??= []).push(at && `${at}/prefixItems/${i}`);
    });
    for (const key of ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'multipleOf']) {
      if (typeof schema[key] === 'number') { out.bounds[key] = schema[key]; said(key); }
    }
    if (schema.pattern) { out.pattern = schema.pattern; said('pattern'); }
    if (schema.format) { out.format = schema.format; said('format'); }
    (schema.allOf || []).forEach((part, i) => visit(part, requiredHere, at && `${at}/allOf/${i}`));
    const branches = [...(schema.oneOf || []).map((b, i) => [b, 'oneOf', i]), ...(schema.anyOf || []).map((b, i) => [b, 'anyOf', i])];
    if (branches.length) {
      // A field is required only when every alternative requires it.
      const each = branches.map(([branch, key, i]) => flatten(document, branch, new Set(seen), at && `${at}/${key}/${i}`));
      for (const b of each) {
        for (const [name, subs] of Object.entries(b.props)) {
          (out.props[name] ??= []).push(...subs);
          (out.propAt[name] ??= []).push(...b.propAt[name]);
          out.propOwner[name] ??= b.propOwner[name];
        }
        for (const list of b.requiredLists) out.requiredLists.add(list);
        for (const name of b.deprecated) out.deprecated.add(name);
      }
      if (requiredHere) {
        for (const name of each.reduce((acc, b) => acc.filter((n) => b.required.has(n)), [...each[0].required])) out.required.add(name);
      }
      const types = each.every((b) => b.types) ? new Set(each.flatMap((b) => [...b.types])) : null;
      if (types) out.types = out.types ? new Set([...out.types].filter((t) => types.has(t))) : types;
      if (each.every((b) => b.enum)) out.enum = [...new Set(each.flatMap((b) => b.enum))];
    }
  };
  visit(raw, true, pointer);
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
function compareSchemas(ctx, side, before, after, where, depth = 0, pairs = new Set(), afterPointer = undefined) {
  if (depth > MAX_DEPTH || before === undefined || after === undefined) return;
  const key = `${side}|${where}`;
  if (pairs.has(key)) return;
  pairs.add(key);
  const a = flatten(ctx.before, before);
  const b = flatten(ctx.after, after, new Set(), afterPointer);
  const field = where || 'the body';
  // Where in the second bundle: the keyword that says it, else the schema.
  const at = (keyword) => b.keywordAt[keyword] ?? b.at;

  if (side === 'request') {
    // What the server accepts must not shrink.
    if (a.types && b.types) {
      const lost = [...a.types].filter((t) => !fits(t, b.types));
      if (lost.length) ctx.report('breaking', 'request-type-narrowed', where, `${field} no longer accepts ${lost.join(', ')} (now ${typeList(b.types)})`, at('type'));
    } else if (!a.types && b.types) ctx.report('breaking', 'request-type-narrowed', where, `${field} now must be ${typeList(b.types)}`, at('type'));
    if (b.enum && (!a.enum || a.enum.some((v) => !b.enum.some(sameValue(v))))) {
      const removed = a.enum ? a.enum.filter((v) => !b.enum.some(sameValue(v))) : null;
      ctx.report('breaking', 'request-enum-narrowed', where, removed ? `${field} no longer accepts ${show(removed)}` : `${field} is now limited to ${show(b.enum)}`, at('enum'));
    }
    for (const k of lower) if (b.bounds[k] !== undefined && (a.bounds[k] === undefined || b.bounds[k] > a.bounds[k])) ctx.report('breaking', 'request-range-narrowed', where, `${field}: ${k} ${a.bounds[k] ?? 'none'} → ${b.bounds[k]}`, at(k));
    for (const k of upper) if (b.bounds[k] !== undefined && (a.bounds[k] === undefined || b.bounds[k] < a.bounds[k])) ctx.report('breaking', 'request-range-narrowed', where, `${field}: ${k} ${a.bounds[k] ?? 'none'} → ${b.bounds[k]}`, at(k));
    if (b.pattern && b.pattern !== a.pattern) ctx.report('breaking', 'request-pattern-changed', where, `${field} must now match ${b.pattern}${a.pattern ? ` (was ${a.pattern})` : ''}`, at('pattern'));
    if (b.format && b.format !== a.format) ctx.report('breaking', 'request-format-changed', where, `${field} must now be format ${b.format}${a.format ? ` (was ${a.format})` : ''}`, at('format'));
    for (const name of b.required) {
      if (!a.required.has(name)) ctx.report('breaking', 'request-property-required', join(where, name), `${join(where, name)} is now required${a.props[name] ? '' : ' (a new field)'}`, b.requiredAt.get(name) ?? b.at);
    }
    for (const name of Object.keys(a.props)) {
      if (b.props[name]) continue;
      if (b.closed) ctx.report('breaking', 'request-property-removed', join(where, name), `${join(where, name)} was removed and the body rejects unknown fields`, b.propertiesAt ?? b.at);
      else ctx.note('request-property-removed', join(where, name), `${join(where, name)} was removed from the request (the server no longer reads it)`, b.propertiesAt ?? b.at);
    }
  } else {
    // What the server may answer must not grow, and what clients rely on must stay.
    if (a.types && b.types) {
      const gained = [...b.types].filter((t) => !fits(t, a.types));
      if (gained.length) ctx.report('breaking', 'response-type-widened', where, `${field} may now be ${gained.join(', ')} (was ${typeList(a.types)})`, at('type'));
    } else if (a.types && !b.types) ctx.report('breaking', 'response-type-widened', where, `${field} is no longer typed (was ${typeList(a.types)})`, b.at);
    if (a.enum && (!b.enum || b.enum.some((v) => !a.enum.some(sameValue(v))))) {
      const added = b.enum ? b.enum.filter((v) => !a.enum.some(sameValue(v))) : null;
      ctx.report('warning', 'response-enum-widened', where, added ? `${field} may now be ${show(added)}: clients that switch over every value need a case for it` : `${field} is no longer limited to ${show(a.enum)}`, at('enum'));
    }
    for (const name of Object.keys(a.props)) {
      if (!b.props[name]) ctx.report('breaking', 'response-property-removed', join(where, name), `${join(where, name)} was removed from the response`, b.propertiesAt ?? b.at);
      else if (a.required.has(name) && !b.required.has(name)) {
        // The `required` list of the schema that declares the field, or the field when it has none.
        const owner = b.propOwner[name];
        const pointer = owner && b.requiredLists.has(owner) ? `${owner}/required` : b.propAt[name][0];
        ctx.report('breaking', 'response-property-optional', join(where, name), `${join(where, name)} is no longer always present`, pointer ?? b.at);
      }
    }
  }
  for (const name of Object.keys(b.props)) {
    if (!a.props[name]) ctx.note(`${side}-property-added`, join(where, name), `${join(where, name)} was added to the ${side}${side === 'request' && !b.required.has(name) ? ' (optional)' : ''}`, b.propAt[name][0] ?? b.at);
    else if (b.deprecated.has(name) && !a.deprecated.has(name)) ctx.note(`${side}-property-deprecated`, join(where, name), `${join(where, name)} is deprecated in the ${side}`, b.propAt[name][0] ?? b.at);
  }
  for (const name of Object.keys(a.props)) {
    if (b.props[name]) compareSchemas(ctx, side, merged(a.props[name]), merged(b.props[name], b.propAt[name]), join(where, name), depth + 1, pairs, b.propAt[name][0]);
  }
  if (a.items.length && b.items.length) compareSchemas(ctx, side, merged(a.items), merged(b.items, b.itemsAt), `${where || ''}[]`, depth + 1, pairs, b.itemsAt[0]);
  a.prefixItems.forEach((items, i) => {
    if (b.prefixItems[i]) compareSchemas(ctx, side, merged(items), merged(b.prefixItems[i], b.prefixItemsAt[i]), `${where || ''}[${i}]`, depth + 1, pairs, b.prefixItemsAt[i][0]);
  });
}

// Several subschemas of one field (allOf parts, oneOf branches) compared as one, each keeping
// the pointer of where it is, so findings inside point at the right source.
const PART_POINTERS = Symbol('pointers of the merged parts');
const merged = (schemas, pointers = []) => (schemas.length === 1 ? schemas[0] : { allOf: schemas, [PART_POINTERS]: pointers });
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

/**
 * The findings of comparing `before` with `after`, and the operations added.
 * @param {{ all?: boolean }} [options] `all`: also the changes that break nobody (level "info")
 */
export function compareDocuments(before, after, { all = false } = {}) {
  const findings = [];
  const opsAfter = new Map([...operations(after)].map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));
  const opsBefore = new Map([...operations(before)].map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));
  for (const [id, a] of opsBefore) {
    const report = (level, code, where, message, pointer) => findings.push({ level, code, operation: id, operationId: a.operation.operationId, where, message, pointer });
    const b = opsAfter.get(id);
    if (!b) {
      const pathItem = after.paths?.[a.path] ? pointerOf('paths', a.path) : '#/paths';
      report('breaking', 'operation-removed', '', `${id} (${a.operation.operationId}) was removed`, pathItem);
      continue;
    }
    const note = all ? (code, where, message, pointer) => report('info', code, where, message, pointer) : () => {};
    const ctx = { before, after, report, note };
    if (b.operation.deprecated === true && a.operation.deprecated !== true) note('operation-deprecated', '', `${id} (${a.operation.operationId}) is deprecated`, b.pointer);

    const sa = securityOf(a.operation);
    const sb = securityOf(b.operation);
    const order = { public: 0, optional: 1, required: 2 };
    const security = b.operation.security ? `${b.pointer}/security` : b.pointer;
    if (order[sb.kind] > order[sa.kind]) report('breaking', 'security-tightened', '', `authentication went from ${sa.kind} to ${sb.kind}`, security);
    const newScopes = [...sb.scopes].filter((s) => !sa.scopes.has(s));
    if (newScopes.length && sb.kind !== 'public') report('breaking', 'scope-added', '', `the token now needs ${newScopes.join(', ')}`, security);

    const okBefore = Object.keys(a.operation.responses || {}).filter((c) => /^2/.test(c));
    const okAfter = Object.keys(b.operation.responses || {}).filter((c) => /^2/.test(c));
    for (const code of okAfter) if (!okBefore.includes(code)) note('success-status-added', `response ${code}`, `success status ${code} may now be answered`, `${b.pointer}/responses/${code}`);
    for (const code of okBefore) if (!okAfter.includes(code)) report('breaking', 'success-status-removed', `response ${code}`, `success status ${code} is no longer answered (now ${okAfter.join(', ') || 'none'})`, `${b.pointer}/responses`);

    const paramsBefore = new Map(a.parameters.map((p) => [`${p.in}:${p.name}`, p]));
    const paramsAfter = new Set(b.parameters.map((p) => `${p.in}:${p.name}`));
    for (const p of a.parameters) if (!paramsAfter.has(`${p.in}:${p.name}`)) note('parameter-removed', `${p.in} parameter ${p.name}`, `${p.in} parameter "${p.name}" was removed (the server no longer reads it)`, b.pointer);
    for (const p of b.parameters) {
      const old = paramsBefore.get(`${p.in}:${p.name}`);
      if (!old && !p.required) note('parameter-added', `${p.in} parameter ${p.name}`, `${p.in} parameter "${p.name}" was added (optional)`, p.pointer);
      if (old && p.deprecated === true && old.deprecated !== true) note('parameter-deprecated', `${p.in} parameter ${p.name}`, `${p.in} parameter "${p.name}" is deprecated`, p.pointer);
      if (p.required && !(old && old.required)) report('breaking', 'parameter-required', `${p.in} parameter ${p.name}`, `${p.in} parameter "${p.name}" is now required${old ? '' : ' (a new parameter)'}`, p.pointer);
      if (old && old.schema && p.schema) compareSchemas({ ...ctx, note: () => {}, report: (level, code, where, message, pointer) => report(level, code.replace(/^request-/, 'parameter-'), `${p.in} parameter ${p.name}`, message.replace('the body', `${p.in} parameter "${p.name}"`), pointer) }, 'request', old.schema, p.schema, '', 0, new Set(), `${p.pointer}/schema`);
    }

    const bodyBefore = a.operation.requestBody && deref(before, a.operation.requestBody)[0];
    const [bodyAfter, bodyAt] = b.operation.requestBody ? deref(after, b.operation.requestBody, `${b.pointer}/requestBody`) : [];
    if (bodyAfter && bodyAfter.required && !(bodyBefore && bodyBefore.required)) report('breaking', 'request-body-required', 'request body', 'a request body is now required', bodyAt);
    const [reqA] = jsonBody(before, a, 'request');
    const [reqB] = jsonBody(after, b, 'request');
    if (reqA && reqB) compareSchemas(ctx, 'request', pointerGet(before, reqA.schemaPointer), pointerGet(after, reqB.schemaPointer), '', 0, new Set(), reqB.schemaPointer);

    for (const code of okBefore.filter((c) => okAfter.includes(c))) {
      const [resA] = jsonBody(before, a, 'response').filter((r) => r.status === code);
      const [resB] = jsonBody(after, b, 'response').filter((r) => r.status === code);
      if (resA && !resB) report('breaking', 'response-media-removed', `response ${code}`, `response ${code} is no longer JSON`, `${b.pointer}/responses/${code}`);
      if (resA && resB) compareSchemas(ctx, 'response', pointerGet(before, resA.schemaPointer), pointerGet(after, resB.schemaPointer), '', 0, new Set(), resB.schemaPointer);
    }
  }
  const added = [...opsAfter.keys()].filter((id) => !opsBefore.has(id));
  return { findings, added };
}

/**
 * The report of a comparison as lines of text, one change per line with the operations it
 * reaches (a shared schema reaches many), and an explicit line when nothing breaks.
 * @param {{ findings: object[], added: string[] }} result what compareDocuments() returned
 * @param {{ base: string, locate?: (pointer: string) => ({ file: string, line: number, column: number } | null) }} options
 *   `base` names what was compared with (`HEAD (1a2b3c4)`); `locate` turns a finding's pointer
 *   into its source file and line.
 */
export function formatChanges({ findings, added }, { base, locate }) {
  const groups = new Map();
  for (const f of findings) {
    const key = `${f.level}|${f.code}|${f.message}`;
    if (!groups.has(key)) groups.set(key, { ...f, operations: [] });
    groups.get(key).operations.push(f.operation);
  }
  const lines = [];
  const list = (title, level, mark) => {
    const items = [...groups.values()].filter((g) => g.level === level);
    if (!items.length) return 0;
    lines.push(title);
    for (const g of items) {
      const at = g.pointer && locate ? locate(g.pointer) : null;
      const ops = g.operations.length > 3 ? `${g.operations.slice(0, 3).join(', ')} and ${g.operations.length - 3} more` : g.operations.join(', ');
      lines.push(`  ${mark} ${at ? `${at.file}:${at.line}:${at.column}  ` : ''}${g.message}  [${g.code}]`, `      ${ops}`);
    }
    return items.length;
  };
  const breaking = list(`Breaking for clients written against ${base}:`, 'breaking', '✖');
  const warnings = list('May affect clients:', 'warning', '⚠');
  if (added.length) lines.push(`Added: ${added.slice(0, 8).join(', ')}${added.length > 8 ? ` and ${added.length - 8} more` : ''}`);
  if (!breaking && !warnings) lines.push(`✔ no breaking change compared with ${base}.`);
  return { lines, breaking, warnings };
}
