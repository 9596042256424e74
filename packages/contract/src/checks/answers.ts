// The checks applied to answers. Each check is {name, outcome: pass|fail|warn|skip, reason} (outcome.ts).
// Those every answer gets: it came, no 5xx, a declared status and content type, a body that
// matches its schema, no secret in it, within the time limit. Then those of each kind of request:
// a valid one succeeds, an invalid one is refused naming the field, a bad credential gets 401, a
// token without the scope gets 403.
import type { components } from '@cloudapi/types';
import { escapeToken } from '@cloudapi/spec/json-pointer';
import type { SchemaViews } from '@cloudapi/spec/schema-views';
import { deref } from '@cloudapi/spec/walk';
import { declaredMediaType, isJsonMedia, type Answer } from '../transport/http.js';
import type { Operation } from '../model/operations.js';
import { walkProperties } from '@cloudapi/spec/schema-walk';
import { rateLimitHeaderChecks } from './traffic-headers.js';
import { declaredHeaderChecks } from './header-checks.js';
import type { Variant } from '../model/variants.js';
import { type Check, fail, pass, skip, warn } from './outcome.js';
import type { TargetKind } from '../transport/target.js';

type ErrorResponse = components['schemas']['ErrorResponse'];


export interface CheckContext {
  document: any;
  views: SchemaViews;
  target: TargetKind;
  undeclared: 'warn' | 'fail' | 'off';
  errorSchemaPointer: string | null;
  maxResponseMs?: number;
  /** names of secrets: write-only properties and names response schemas forbid */
  secretNames: ReadonlySet<string>;
}

export const excerpt = (text: unknown, max = 160): string => {
  const flat = String(text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat || '(empty body)';
};
export const is2xx = (status?: number): boolean => status !== undefined && status >= 200 && status < 300;
export const is4xx = (status?: number): boolean => status !== undefined && status >= 400 && status < 500;
export const describeAnswer = (answer: Answer): string => (answer.error ? `no answer (${answer.error})` : `${answer.status} ${excerpt(answer.text, 120)}`);

/** The declared response for a status: exact code, then `4XX`-style range, then `default`. */
export function declaredResponse(document: any, op: Operation, status: number): { key: string; response: any; pointer: string } | null {
  const responses = op.raw.responses || {};
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responses[k] !== undefined);
  if (!key) return null;
  const [response, at] = deref(document, responses[key], `${op.pointer}/responses/${escapeToken(key)}`);
  return { key, response, pointer: at };
}

/** The pointer of the schema of the success body (first 2xx, JSON), if any. */
export function successSchemaPointer(document: any, op: Operation): string | null {
  const code = Object.keys(op.raw.responses || {}).find((c) => /^2/.test(c));
  if (!code) return null;
  const declared = declaredResponse(document, op, Number(code));
  const media = Object.keys(declared?.response?.content || {}).find((m) => isJsonMedia(m));
  return declared && media ? `${declared.pointer}/content/${escapeToken(media)}/schema` : null;
}

/**
 * Checks every answer must pass: it came (whole, under the size cap, in time), no 5xx, a declared
 * status and content type, a body that matches the response schema (response view), error bodies
 * that match the error schema, no secret in any body, and fields the schema does not declare (a
 * warning, or a failure with `undeclared: 'fail'`).
 */
export function checkAnswer(ctx: CheckContext, op: Operation, answer: Answer): Check[] {
  if (answer.error) {
    const name = answer.errorKind === 'too large' ? 'body under the size cap' : 'answers';
    return [fail(name, answer.errorKind === 'too large' ? answer.error : `no answer: ${answer.error}`)];
  }
  const status = answer.status!;
  const checks: Check[] = rateLimitHeaderChecks(answer, ctx.target);
  if (ctx.maxResponseMs !== undefined) {
    checks.push(answer.ms <= ctx.maxResponseMs ? pass('response time', `${Math.round(answer.ms)} ms`) : fail('response time', `answered in ${Math.round(answer.ms)} ms, over --max-response-ms ${ctx.maxResponseMs}`));
  }
  const bodyCheck = is2xx(status) ? 'body matches schema' : 'error body matches schema';
  if (status >= 500) return [...checks, fail('no 5xx', `answered ${status}: ${excerpt(answer.text)}`), ...leakChecks(ctx, op, answer)];
  checks.push(pass('no 5xx'));
  checks.push(...leakChecks(ctx, op, answer));
  const declared = declaredResponse(ctx.document, op, status);
  const codes = Object.keys(op.raw.responses || {}).join(', ');
  if (!declared) {
    checks.push(fail('status declared', `answered ${status}, which the operation does not declare (declared: ${codes})`));
    if (is4xx(status) && ctx.errorSchemaPointer) checks.push(...bodyChecks(ctx, ctx.errorSchemaPointer, answer, 'error body matches schema'));
    return checks;
  }
  checks.push(pass('status declared', `${status}`));
  checks.push(...declaredHeaderChecks(ctx.document, ctx.views, declared, answer.headers));
  const content = declared.response.content || {};
  const mediaTypes = Object.keys(content);
  if (!mediaTypes.length) {
    checks.push(answer.text.length ? fail('content type declared', `answered ${status} with a body (${answer.mediaType || 'no content type'}) where the response declares none`) : pass('content type declared', 'no body'));
    return checks;
  }
  if (!answer.text.length) {
    checks.push(fail('content type declared', `answered ${status} with no body; declared ${mediaTypes.join(', ')}`));
    return checks;
  }
  const mediaType = mediaTypes.find((m) => m.toLowerCase() === answer.mediaType) || mediaTypes.find((m) => declaredMediaType([m], answer.mediaType));
  if (!mediaType) {
    checks.push(fail('content type declared', `answered ${status} as "${answer.mediaType || 'no content type'}"; declared ${mediaTypes.join(', ')}`));
    return checks;
  }
  checks.push(pass('content type declared', answer.mediaType));
  if (!content[mediaType].schema) return checks;
  checks.push(...bodyChecks(ctx, `${declared.pointer}/content/${escapeToken(mediaType)}/schema`, answer, bodyCheck));
  return checks;
}

function bodyChecks(ctx: CheckContext, schemaPointer: string, answer: Answer, name: string): Check[] {
  let value: unknown;
  if (isJsonMedia(answer.mediaType)) {
    if (answer.parseError) return [fail(name, `the body is not JSON: ${answer.parseError}`)];
    value = answer.json;
  } else if (answer.mediaType.startsWith('text/')) {
    value = answer.text;
  } else {
    return [skip(name, `a ${answer.mediaType || 'untyped'} body is not validated`)];
  }
  const result = ctx.views.validate('response', schemaPointer, value);
  const checks = [result.valid ? pass(name) : fail(name, result.errors.slice(0, 5).map((e) => e.message).join('; '))];
  if (ctx.undeclared !== 'off') {
    const extra = value && typeof value === 'object' ? ctx.views.undeclared('response', schemaPointer, value) : [];
    const reason = `fields the schema does not declare: ${extra.slice(0, 8).join(', ')}${extra.length > 8 ? ` and ${extra.length - 8} more` : ''}`;
    checks.push(!extra.length ? pass('no undeclared fields') : ctx.undeclared === 'fail' ? fail('no undeclared fields', reason) : warn('no undeclared fields', reason));
  }
  return checks;
}

/** Names of the secrets of the document: write-only properties, and names a response schema forbids outright. */
export function secretNamesOf(document: any): Set<string> {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (node: any): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (node.properties && typeof node.properties === 'object') {
      for (const [name, property] of Object.entries<any>(node.properties)) if (property && property.writeOnly === true) names.add(name);
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(document);
  return names;
}

// The names a response schema lets through as readable fields, with any value they are pinned to
// (a redaction placeholder such as "<REDACTED>").
function readableDeclarations(ctx: CheckContext, pointer: string): Map<string, unknown[] | 'any'> {
  const out = new Map<string, unknown[] | 'any'>();
  walkProperties(ctx.views.schemaAt(pointer), (node) => ctx.views.resolve(node), (name, raw, property) => {
    if (property === false || !property || property.writeOnly === true || raw?.writeOnly === true) return false;
    const pinned = property.const !== undefined ? [property.const] : Array.isArray(property.enum) && ctx.secretNames.has(name) ? property.enum : null;
    const before = out.get(name);
    if (before === 'any' || !pinned) out.set(name, 'any');
    else out.set(name, [...(before ?? []), ...pinned]);
    return true;
  });
  return out;
}

const readableCache = new WeakMap<CheckContext, Map<string, Map<string, unknown[] | 'any'>>>();

/**
 * No secret in any answer: a field named like a write-only property (root_pass, private_key,
 * ssl_key...) anywhere in the body fails, naming the field and where, unless this operation's
 * response schema declares that field readable there (the access key's secret_key on create)
 * or pins it to a placeholder the body carries.
 */
export function leakChecks(ctx: CheckContext, op: Operation, answer: Answer): Check[] {
  if (!ctx.secretNames.size || answer.json === undefined || answer.json === null || typeof answer.json !== 'object') return [];
  let cache = readableCache.get(ctx);
  if (!cache) { cache = new Map(); readableCache.set(ctx, cache); }
  const status = answer.status ?? 0;
  const declared = declaredResponse(ctx.document, op, status);
  const media = declared && Object.keys(declared.response.content || {}).find((m) => isJsonMedia(m));
  const pointer = declared && media ? `${declared.pointer}/content/${escapeToken(media)}/schema` : null;
  let readable = pointer ? cache.get(pointer) : new Map<string, unknown[] | 'any'>();
  if (!readable) { readable = readableDeclarations(ctx, pointer!); cache.set(pointer!, readable); }
  const leaks: string[] = [];
  const walk = (value: unknown, at: string, depth: number): void => {
    if (!value || typeof value !== 'object' || depth > 32) return;
    for (const [key, child] of Object.entries(value)) {
      const here = `${at}/${escapeToken(key)}`;
      if (ctx.secretNames.has(key) && child !== null && child !== undefined) {
        const allowed = readable!.get(key);
        const ok = allowed === 'any' || (Array.isArray(allowed) && allowed.some((v) => JSON.stringify(v) === JSON.stringify(child)));
        if (!ok) leaks.push(`${key} at ${here}`);
      }
      walk(child, here, depth + 1);
    }
  };
  walk(answer.json, '', 0);
  return leaks.length
    ? [fail('no secret in the answer', `${op.id} answered ${status} with write-only field${leaks.length > 1 ? 's' : ''} ${leaks.join(', ')}: a secret must never come back`)]
    : [pass('no secret in the answer')];
}

/** A valid request must succeed: a 2xx, whatever the target. */
export function checkSuccess(answer: Answer, context: string): Check[] {
  if (answer.error) return [fail('success', `no answer to a valid request (${answer.error})`)];
  if (is2xx(answer.status)) return [pass('success', `${answer.status}`)];
  const retried = answer.retries ? ` after waiting out ${answer.retries} 429 answer${answer.retries > 1 ? 's' : ''}` : '';
  return [fail('success', `answered ${answer.status}${retried} to a valid request ${context}: ${excerpt(answer.text)}`)];
}

const fieldMatches = (named: string, wanted: string[]) => {
  const a = String(named).replace(/\[(\d+)\]/g, '.$1').replace(/^\$?\.?/, '');
  return wanted.some((b) => a === b || b.startsWith(`${a}.`) || a.startsWith(`${b}.`));
};

/** An invalid request (a variant breaking one rule): a 4xx that names the field. */
export function checkRejected(ctx: CheckContext, variant: Variant & { location: string }, answer: Answer): Check[] {
  if (answer.error || answer.status! >= 500) return [];
  const where = variant.location === 'body' ? 'body' : `${variant.location} parameter`;
  if (!is4xx(answer.status)) return [fail('rejected', `answered ${answer.status} to an invalid ${where}; expected a 4xx`)];
  const checks = [pass('rejected', `${answer.status}`)];
  // The mock turns Prism's violations into errors[] and still sends them in sl-violations.
  if (ctx.target === 'mock') checks.push(prismFlags(variant, answer));
  if (answer.status !== 400) {
    const reason = `answered ${answer.status}, not 400, so whether the ${where} was validated is unknown`;
    checks.push(variant.location === 'path' && answer.status === 404 ? skip('error names the field', reason) : warn('error names the field', reason));
    return checks;
  }
  const body = answer.json as Partial<ErrorResponse> | undefined;
  const errors = body && Array.isArray(body.errors) ? body.errors : [];
  const named = errors.map((e) => e && e.field).filter((f): f is string => typeof f === 'string');
  checks.push(named.some((f) => fieldMatches(f, variant.fields))
    ? pass('error names the field', named.join(', '))
    : fail('error names the field', `the errors name ${named.length ? named.map((f) => `"${f}"`).join(', ') : 'no field'}; expected ${variant.fields.map((f) => `"${f}"`).join(' or ')}`));
  return checks;
}

// Prism says in its sl-violations header why it refused a request; the violation must point at
// the field the variant breaks, or at an object that holds it (required, conditional rules).
function prismFlags(variant: Variant & { location: string }, answer: Answer): Check {
  const name = 'Prism flags the field';
  let violations: any;
  try { violations = JSON.parse(String(answer.headers['sl-violations'] ?? 'null')); } catch { violations = null; }
  if (!Array.isArray(violations) || !violations.length) return fail(name, 'Prism sent no sl-violations header, so it refused the request for another reason');
  const wanted = variant.fields.map((f) => (variant.location === 'body' ? f.split('.') : [f.toLowerCase()]));
  const hit = violations.some((v: any) => {
    const [where, kind, ...rest] = v.location || [];
    if (where !== 'request' || kind !== variant.location) return false;
    const parts = variant.location === 'body' ? rest : rest.map((r: unknown) => String(r).toLowerCase());
    return wanted.some((w) => parts.every((p: unknown, i: number) => String(w[i]) === String(p)));
  });
  const seen = violations.map((v: any) => `${(v.location || []).join('.')}: ${v.message}`).join('; ');
  return hit ? pass(name, seen) : fail(name, `Prism refused it for another reason: ${seen}`);
}

/** A request the operation must refuse with one status (401 for a bad credential, 403 for a missing scope). */
export function checkRefused(name: string, expected: number, answer: Answer, what: string): Check[] {
  if (answer.error) return [];
  if (answer.status === expected) return [pass(name, `${expected}`)];
  return [fail(name, `answered ${answer.status} ${what}; expected ${expected}: ${excerpt(answer.text, 120)}`)];
}
