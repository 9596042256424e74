// One operation compared with its earlier self: its parameters, its request body and its
// responses (every status, every media type compared exactly, the headers). Schema changes come
// from schemas.mjs as relative findings and are reported here under the field's full name, with
// the codes of parameters (`parameter-…`) and response headers (`response-header-…`).
import { appendPointer } from '../json-pointer.mjs';
import { deref } from '../walk.mjs';
import { isPlainRef } from './flatten.mjs';
import { compareSchemas, joinField } from './schemas.mjs';

/**
 * @typedef {object} OperationContext
 * @property {import('./schemas.mjs').SchemaContext} schemas
 * @property {(code: string, where: string, message: string, pointer: string | undefined) => void} report
 */

/**
 * Reports the relative findings of a schema comparison under `field` (shown as `label` when the
 * change is the schema itself), their codes' side prefix replaced by `prefix`.
 */
function reportSchema(ctx, findings, { field, label, side, prefix }) {
  for (const f of findings) {
    const where = joinField(field, f.rel);
    const code = prefix === side ? f.code : f.code.replace(`${side}-`, `${prefix}-`);
    ctx.report(code, where, f.text(f.rel ? where : label), f.pointer);
  }
}

/** A parameter's key: path parameters by their place in the template, the others by name. */
function parameterKey(path, p) {
  if (p.in === 'path') return `path#${(path.match(/\{[^}]+\}/g) || []).indexOf(`{${p.name}}`)}`;
  return `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
}

const JSON_MEDIA = /^application\/(.+\+)?json$/;

/**
 * The schema of a parameter's value: `schema`, the schema of its one media type (`content`), or
 * the `contentSchema` of a string that carries JSON, so that a header moved from one of these
 * forms to another is compared by the structure it carries.
 */
function parameterSchema(p) {
  if (p.schema?.contentSchema && JSON_MEDIA.test(p.schema.contentMediaType ?? '')) return [p.schema.contentSchema, `${p.pointer}/schema/contentSchema`];
  if (p.schema) return [p.schema, `${p.pointer}/schema`];
  const [mediaType, media] = Object.entries(p.content ?? {})[0] ?? [];
  return mediaType ? [media.schema, appendPointer(p.pointer, 'content', mediaType, 'schema')] : [undefined, undefined];
}

/** OpenAPI's default style of a parameter's place. */
const DEFAULT_STYLE = { query: 'form', cookie: 'form', path: 'simple', header: 'simple' };

/**
 * How a parameter given by `schema` is written into the request (null for one given by `content`,
 * or a JSON text, which carries its value whole): its style, and `explode` where the value may be
 * an array or an object (null for a single value: both ways of `explode` write it alike).
 * @param {any} document @param {any} p @returns {{ style: string, explode: boolean | null } | null}
 */
function serialization(document, p) {
  if (!p.schema || p.schema.contentSchema) return null;
  const style = p.style ?? DEFAULT_STYLE[p.in] ?? 'simple';
  const [schema] = deref(document, p.schema);
  const types = schema?.type === undefined ? null : [].concat(schema.type);
  const composite = !types || types.includes('array') || types.includes('object');
  return { style, explode: composite ? p.explode ?? style === 'form' : null };
}

/** What changed in how a parameter is written ('' when nothing did). */
function serializationChange(a, b) {
  if (!a || !b) return '';
  const changes = [];
  if (a.style !== b.style) changes.push(`style ${a.style} → ${b.style}`);
  if (a.explode !== null && b.explode !== null && a.explode !== b.explode) changes.push(`explode ${a.explode} → ${b.explode}`);
  return changes.join(', ');
}

/** @param {OperationContext} ctx @param {any} opA the walked operation before @param {any} opB after */
export function compareParameters(ctx, opA, opB) {
  const before = new Map(opA.parameters.map((p) => [parameterKey(opA.path, p), p]));
  const afterKeys = new Set(opB.parameters.map((p) => parameterKey(opB.path, p)));
  const label = (p) => `${p.in} parameter ${p.name}`;
  for (const [key, p] of before) if (!afterKeys.has(key)) ctx.report('parameter-removed', label(p), `${p.in} parameter "${p.name}" was removed (a client sending it may be refused)`, opB.pointer);
  for (const p of opB.parameters) {
    const old = before.get(parameterKey(opB.path, p));
    const where = label(p);
    if (!old) {
      if (p.required) ctx.report('parameter-required', where, `${p.in} parameter "${p.name}" is now required (a new parameter)`, p.pointer);
      else ctx.report('parameter-added', where, `${p.in} parameter "${p.name}" was added (optional)`, p.pointer);
      continue;
    }
    if (old.name !== p.name) ctx.report('parameter-renamed', where, `path parameter "${old.name}" is now named "${p.name}"`, p.pointer);
    if (p.required && !old.required) ctx.report('parameter-required', where, `${p.in} parameter "${p.name}" is now required`, `${p.pointer}/required`);
    if (!p.required && old.required) ctx.report('parameter-optional', where, `${p.in} parameter "${p.name}" is now optional`, p.pointer);
    if (p.deprecated === true && old.deprecated !== true) ctx.report('parameter-deprecated', where, `${p.in} parameter "${p.name}" is deprecated`, `${p.pointer}/deprecated`);
    if (p.deprecated !== true && old.deprecated === true) ctx.report('parameter-reactivated', where, `${p.in} parameter "${p.name}" is no longer deprecated`, p.pointer);
    const written = serializationChange(serialization(ctx.schemas.before, old), serialization(ctx.schemas.after, p));
    if (written) ctx.report('parameter-serialization-changed', where, `${p.in} parameter "${p.name}" is written another way (${written}): a client writing it the old way is misread`, p.pointer);
    const [schemaA] = parameterSchema(old);
    const [schemaB, schemaAt] = parameterSchema(p);
    const findings = compareSchemas(ctx.schemas, 'request', schemaA, schemaB, schemaAt);
    reportSchema(ctx, findings, { field: where, label: `${p.in} parameter "${p.name}"`, side: 'request', prefix: 'parameter' });
  }
}

const essence = (mediaType) => mediaType.split(';')[0].trim().toLowerCase();

/**
 * Pairs the media types of two `content` maps, exactly; a type whose parameters alone changed
 * (`; charset=…`) is paired with `parametersChanged`.
 */
function pairMedia(contentA = {}, contentB = {}) {
  const unmatched = Object.keys(contentB).filter((m) => !(m in contentA));
  const pairs = [];
  const removed = [];
  for (const mediaType of Object.keys(contentA)) {
    if (mediaType in contentB) { pairs.push({ a: mediaType, b: mediaType }); continue; }
    const i = unmatched.findIndex((m) => essence(m) === essence(mediaType));
    if (i >= 0) pairs.push({ a: mediaType, b: unmatched.splice(i, 1)[0], parametersChanged: true });
    else removed.push(mediaType);
  }
  return { pairs, removed, added: unmatched };
}

/** @param {OperationContext} ctx */
export function compareRequestBody(ctx, opA, opB) {
  const { before, after } = ctx.schemas;
  const [bodyA] = opA.operation.requestBody ? deref(before, opA.operation.requestBody) : [];
  const [bodyB, bodyAt] = opB.operation.requestBody ? deref(after, opB.operation.requestBody, `${opB.pointer}/requestBody`) : [];
  if (!bodyA && !bodyB) return;
  if (!bodyB) { ctx.report('request-body-removed', 'request body', 'the request body was removed (a client sending one may be refused)', opB.pointer); return; }
  if (!bodyA) {
    if (bodyB.required) ctx.report('request-body-required', 'request body', 'a request body is now required (a new body)', bodyAt);
    else ctx.report('request-body-added', 'request body', 'an optional request body was added', bodyAt);
    return;
  }
  if (bodyB.required && !bodyA.required) ctx.report('request-body-required', 'request body', 'a request body is now required', `${bodyAt}/required`);
  if (!bodyB.required && bodyA.required) ctx.report('request-body-optional', 'request body', 'the request body is now optional', bodyAt);
  const { pairs, removed, added } = pairMedia(bodyA.content, bodyB.content);
  for (const mediaType of removed) ctx.report('request-media-removed', 'request body', `the request body no longer takes ${mediaType}`, `${bodyAt}/content`);
  for (const mediaType of added) ctx.report('request-media-added', 'request body', `the request body now also takes ${mediaType}`, appendPointer(bodyAt, 'content', mediaType));
  for (const { a, b } of pairs) {
    const mediaAt = appendPointer(bodyAt, 'content', b);
    const [schemaA, schemaB] = [bodyA.content[a].schema, bodyB.content[b].schema];
    if (schemaA && !schemaB) ctx.report('request-schema-removed', 'request body', `the ${b} request body has no schema any more`, mediaAt);
    if (!schemaA && schemaB) ctx.report('request-schema-added', 'request body', `the ${b} request body now has a schema`, `${mediaAt}/schema`);
    reportSchema(ctx, compareSchemas(ctx.schemas, 'request', schemaA, schemaB, `${mediaAt}/schema`), { field: '', label: 'the body', side: 'request', prefix: 'request' });
  }
}

const isSuccess = (status) => /^2/.test(status);

/**
 * Runs `compare(report)` once per `key` (two shared components compared under one status) and
 * reports what it found for every operation that reaches them; without a key, just runs it.
 * @param {OperationContext} ctx @param {string | null} key @param {(report: OperationContext['report']) => void} compare
 */
function reusing(ctx, key, compare) {
  if (!key) { compare(ctx.report); return; }
  let found = ctx.schemas.memo.get(key);
  if (!found) {
    const list = [];
    compare((...args) => { list.push(args); });
    ctx.schemas.memo.set(key, list);
    found = list;
  }
  for (const args of found) ctx.report(...args);
}
const refPair = (kind, status, a, b) => (isPlainRef(a) && isPlainRef(b) ? `${kind}|${status}|${a.$ref}|${b.$ref}` : null);

/** @param {OperationContext} ctx */
export function compareResponses(ctx, opA, opB) {
  const responsesA = opA.operation.responses || {};
  const responsesB = opB.operation.responses || {};
  const success = Object.keys(responsesB).filter(isSuccess);
  for (const status of Object.keys(responsesA)) {
    if (status in responsesB) {
      reusing(ctx, refPair('response', status, responsesA[status], responsesB[status]), (report) => compareResponse({ ...ctx, report }, opB, status, responsesA[status], responsesB[status]));
      continue;
    }
    if (isSuccess(status)) ctx.report('success-status-removed', `response ${status}`, `success status ${status} is no longer answered (now ${success.join(', ') || 'none'})`, `${opB.pointer}/responses`);
    else ctx.report('error-status-removed', `response ${status}`, `status ${status} is no longer declared`, `${opB.pointer}/responses`);
  }
  for (const status of Object.keys(responsesB)) {
    if (status in responsesA) continue;
    if (isSuccess(status)) ctx.report('success-status-added', `response ${status}`, `success status ${status} may now be answered`, `${opB.pointer}/responses/${status}`);
    else ctx.report('error-status-added', `response ${status}`, `status ${status} may now be answered`, `${opB.pointer}/responses/${status}`);
  }
}

function compareResponse(ctx, opB, status, rawA, rawB) {
  const { before, after } = ctx.schemas;
  const [a] = deref(before, rawA);
  const [b, at] = deref(after, rawB, `${opB.pointer}/responses/${status}`);
  const where = `response ${status}`;
  const { pairs, removed, added } = pairMedia(a.content, b.content);
  for (const mediaType of removed) ctx.report('response-media-removed', where, `response ${status} is no longer ${mediaType}`, `${at}/content`);
  for (const mediaType of added) ctx.report('response-media-added', where, `response ${status} may now be ${mediaType}`, appendPointer(at, 'content', mediaType));
  for (const pair of pairs) {
    const mediaAt = appendPointer(at, 'content', pair.b);
    if (pair.parametersChanged) ctx.report('response-media-parameters-changed', where, `response ${status}: ${pair.a} is now ${pair.b}`, mediaAt);
    const [schemaA, schemaB] = [a.content[pair.a].schema, b.content[pair.b].schema];
    if (schemaA && !schemaB) ctx.report('response-schema-removed', where, `response ${status} (${pair.b}) has no schema any more`, mediaAt);
    if (!schemaA && schemaB) ctx.report('response-schema-added', where, `response ${status} (${pair.b}) now has a schema`, `${mediaAt}/schema`);
    reportSchema(ctx, compareSchemas(ctx.schemas, 'response', schemaA, schemaB, `${mediaAt}/schema`), { field: '', label: `the response ${status}`, side: 'response', prefix: 'response' });
  }
  compareHeaders(ctx, status, a.headers ?? {}, b.headers ?? {}, at);
}

function compareHeaders(ctx, status, headersA, headersB, at) {
  const { before, after } = ctx.schemas;
  const byName = (headers) => new Map(Object.entries(headers).map(([name, h]) => [name.toLowerCase(), name]));
  const [namesA, namesB] = [byName(headersA), byName(headersB)];
  for (const [key, nameA] of namesA) {
    const [a] = deref(before, headersA[nameA]);
    const where = `response ${status} header ${nameA}`;
    if (!namesB.has(key)) {
      ctx.report(a.required ? 'response-header-removed' : 'response-optional-header-removed', where, `response ${status} no longer sends header ${nameA}`, `${at}/headers`);
      continue;
    }
    const nameB = namesB.get(key);
    reusing(ctx, refPair(`header ${key}`, status, headersA[nameA], headersB[nameB]), (report) => {
      const [b, headerAt] = deref(after, headersB[nameB], appendPointer(at, 'headers', nameB));
      if (a.required && !b.required) report('response-header-optional', where, `header ${nameB} of response ${status} is no longer always sent`, headerAt);
      if (!a.required && b.required) report('response-header-required', where, `header ${nameB} of response ${status} is now always sent`, `${headerAt}/required`);
      const findings = compareSchemas(ctx.schemas, 'response', a.schema, b.schema, `${headerAt}/schema`, { textual: true });
      reportSchema({ ...ctx, report }, findings, { field: where, label: `header ${nameB} of response ${status}`, side: 'response', prefix: 'response-header' });
    });
  }
  for (const [key, nameB] of namesB) {
    if (!namesA.has(key)) ctx.report('response-header-added', `response ${status} header ${nameB}`, `response ${status} now sends header ${nameB}`, appendPointer(at, 'headers', nameB));
  }
}
