// The checks applied to every answer, and those specific to valid requests, invalid requests and
// requests without a token. Each check is {name, outcome: pass|fail|warn|skip, reason}.
import { deref } from '@cloudapi/spec/walk';
import { escapePointerPart } from '@cloudapi/spec/schema-views';
import { declaredMediaType, isJsonMedia } from './http.mjs';

const pass = (name, reason = '') => ({ name, outcome: 'pass', reason });
const fail = (name, reason) => ({ name, outcome: 'fail', reason });
const warn = (name, reason) => ({ name, outcome: 'warn', reason });
const skip = (name, reason) => ({ name, outcome: 'skip', reason });
export const outcomes = { pass, fail, warn, skip };

const excerpt = (text, max = 160) => {
  const flat = String(text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat || '(empty body)';
};
const is2xx = (status) => status >= 200 && status < 300;
const is4xx = (status) => status >= 400 && status < 500;

/** The declared response for a status: exact code, then `4XX`-style range, then `default`. */
export function declaredResponse(document, op, status) {
  const responses = op.operation.responses || {};
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responses[k] !== undefined);
  if (!key) return null;
  const [response, at] = deref(document, responses[key], `${op.pointer}/responses/${escapePointerPart(key)}`);
  return { key, response, pointer: at };
}

/**
 * Checks every answer must pass: an answer came, no 5xx, a declared status, a declared content
 * type, a body that matches the response schema (response view), error bodies that match the
 * error schema, and fields the schema does not declare (a warning, or a failure with
 * `undeclared: 'fail'`).
 */
export function checkAnswer(ctx, op, answer) {
  const { document, views } = ctx;
  if (answer.error) return [fail('answers', `no answer: ${answer.error}`)];
  const checks = [];
  const { status } = answer;
  const bodyCheck = is2xx(status) ? 'body matches schema' : 'error body matches schema';
  if (status >= 500) return [fail('no 5xx', `answered ${status}: ${excerpt(answer.text)}`)];
  checks.push(pass('no 5xx'));
  const declared = declaredResponse(document, op, status);
  const codes = Object.keys(op.operation.responses || {}).join(', ');
  if (!declared) {
    checks.push(fail('status declared', `answered ${status}, which the operation does not declare (declared: ${codes})`));
    if (is4xx(status) && ctx.errorSchemaPointer) checks.push(...bodyChecks(ctx, ctx.errorSchemaPointer, answer, 'error body matches schema'));
    return checks;
  }
  checks.push(pass('status declared', `${status}`));
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
  const schemaPointer = `${declared.pointer}/content/${escapePointerPart(mediaType)}/schema`;
  if (!content[mediaType].schema) return checks;
  checks.push(...bodyChecks(ctx, schemaPointer, answer, bodyCheck));
  return checks;
}

function bodyChecks(ctx, schemaPointer, answer, name) {
  let value;
  if (isJsonMedia(answer.mediaType)) {
    if (answer.parseError) return [fail(name, `the body is not JSON: ${answer.parseError}`)];
    value = answer.json;
  } else if (answer.mediaType.startsWith('text/')) {
    value = answer.text;
  } else {
    return [skip(name, `a ${answer.mediaType} body is not validated`)];
  }
  const result = ctx.views.validate('response', schemaPointer, value);
  const checks = [result.valid ? pass(name) : fail(name, result.errors.slice(0, 5).map((e) => e.message).join('; '))];
  const extra = value && typeof value === 'object' ? ctx.views.undeclared('response', schemaPointer, value) : [];
  if (ctx.undeclared !== 'off') {
    const reason = `fields the schema does not declare: ${extra.slice(0, 8).join(', ')}${extra.length > 8 ? ` and ${extra.length - 8} more` : ''}`;
    checks.push(!extra.length ? pass('no undeclared fields') : ctx.undeclared === 'fail' ? fail('no undeclared fields', reason) : warn('no undeclared fields', reason));
  }
  return checks;
}

/**
 * A valid request: the answer should be a success. Against an implementation a 4xx is only a
 * warning (an example id may not exist, a grant may be missing), except a 401 (the token, or the
 * lack of one on a public operation, was refused) and a 404 on a path without parameters (the
 * route itself is missing), which no state explains.
 */
export function checkSuccess(ctx, op, answer, sentToken) {
  if (answer.error) return [];
  if (is2xx(answer.status)) return [pass('success', `${answer.status}`)];
  if (answer.status >= 500) return [];
  const reason = `answered ${answer.status} to a valid request built from the spec's examples: ${excerpt(answer.text)}`;
  if (ctx.target === 'mock') return [fail('success', reason)];
  if (answer.status === 401) return [fail('success', `${reason}; ${sentToken ? 'the token was refused (give a valid one with --token)' : 'a public operation refused a request without a token'}`)];
  if (answer.status === 404 && !/\{/.test(op.path)) return [fail('success', `${reason}; the route itself is missing (the path has no parameter)`)];
  return [warn('success', `${reason}; the success response was not checked`)];
}

const fieldMatches = (named, wanted) => {
  const a = String(named).replace(/\[(\d+)\]/g, '.$1').replace(/^\$?\.?/, '');
  return wanted.some((b) => a === b || b.startsWith(`${a}.`) || a.startsWith(`${b}.`));
};

/** An invalid request (a variant breaking one rule): a 4xx that names the field. */
export function checkRejected(ctx, variant, answer) {
  if (answer.error || answer.status >= 500) return [];
  const where = variant.location === 'body' ? 'body' : `${variant.location} parameter`;
  if (!is4xx(answer.status)) return [fail('rejected', `answered ${answer.status} to an invalid ${where}; expected a 4xx`)];
  const checks = [pass('rejected', `${answer.status}`)];
  // The mock's front layer turns Prism's violations into the error body, so it is checked too.
  if (ctx.target === 'mock') checks.push(prismFlags(variant, answer));
  if (answer.status !== 400) {
    const reason = `answered ${answer.status}, not 400, so whether the ${where} was validated is unknown`;
    checks.push(variant.location === 'path' && answer.status === 404 ? skip('error names the field', reason) : warn('error names the field', reason));
    return checks;
  }
  const errors = answer.json && Array.isArray(answer.json.errors) ? answer.json.errors : [];
  const named = errors.map((e) => e && e.field).filter((f) => typeof f === 'string');
  checks.push(named.some((f) => fieldMatches(f, variant.fields))
    ? pass('error names the field', named.join(', '))
    : fail('error names the field', `the errors name ${named.length ? named.map((f) => `"${f}"`).join(', ') : 'no field'}; expected ${variant.fields.map((f) => `"${f}"`).join(' or ')}`));
  return checks;
}

// Prism says in its sl-violations header why it refused a request; the violation must point at
// the field the variant breaks, or at an object that holds it (required, conditional rules).
function prismFlags(variant, answer) {
  const name = 'Prism flags the field';
  let violations;
  try { violations = JSON.parse(answer.headers.get('sl-violations') || 'null'); } catch { violations = null; }
  if (!Array.isArray(violations) || !violations.length) return fail(name, 'Prism sent no sl-violations header, so it refused the request for another reason');
  const location = variant.location === 'body' ? 'body' : variant.location;
  const wanted = variant.fields.map((f) => (variant.location === 'body' ? f.split('.') : [f.toLowerCase()]));
  const hit = violations.some((v) => {
    const [where, kind, ...rest] = v.location || [];
    if (where !== 'request' || kind !== location) return false;
    const parts = variant.location === 'body' ? rest : rest.map((r) => String(r).toLowerCase());
    return wanted.some((w) => parts.every((p, i) => String(w[i]) === String(p)));
  });
  const seen = violations.map((v) => `${(v.location || []).join('.')}: ${v.message}`).join('; ');
  return hit ? pass(name, seen) : fail(name, `Prism refused it for another reason: ${seen}`);
}

/** A secured operation without a token: 401. */
export function checkRefusedWithoutToken(answer) {
  if (answer.error || answer.status >= 500) return [];
  return [answer.status === 401 ? pass('401 without token') : fail('401 without token', `answered ${answer.status} without a token; a secured operation must answer 401`)];
}
