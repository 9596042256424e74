// Every error the mock answers is the spec's ErrorResponse, `{"errors": [{field?, reason}]}`:
// the front layer's own refusals, Prism's problem+json bodies (unknown path, bad Prefer, invalid
// content type...) and Prism's request violations, which name each offending field where
// Prism's canned 400 example would name whatever field the example happens to name.

const PRISM_ERRORS = 'https://stoplight.io/prism/errors#';
// Keywords that only say a combination failed; the specific error beside them names the field.
const COMPOSITE = new Set(['if', 'then', 'else', 'allOf']);

/** A violation as Prism writes it in `sl-violations`: `{location, severity, code, message}`. */
export function violation(location, code, message) {
  return { location, severity: 'Error', code, message };
}

// For `required`, `dependentRequired`, `additionalProperties` and `unevaluatedProperties`, Prism
// (Ajv) locates the object and names the property only in the message.
const NAMED_PROPERTY = [/required property '([^']+)'/, /must have property (\S+) when property/, /found '([^']+)'/, /unevaluated properties: '([^']+)'/, /property name '([^']+)'/];
function namedProperty(message) {
  for (const pattern of NAMED_PROPERTY) {
    const named = pattern.exec(message || '');
    if (named) return named[1];
  }
  return undefined;
}

const PLACES = ['body', 'query', 'path', 'header', 'headers'];

/**
 * The field a violation is about, as a dotted path (`devices.sda.disk_id`), or undefined when it
 * concerns no single field (a missing token, the content type). `parameters` are the operation's
 * parameter names: Prism reports path parameters in lower case.
 */
export function fieldOf(v, parameters = []) {
  const [, where, ...rest] = v.location || [];
  if (!PLACES.includes(where)) return undefined;
  const parts = [...rest, namedProperty(v.message)].filter((p) => p !== undefined).map(String);
  if (!parts.length) return undefined;
  if (where !== 'body') parts[0] = parameters.find((name) => name.toLowerCase() === parts[0].toLowerCase()) ?? parts[0];
  return parts.join('.');
}

/** Prism's message without its "Request body property x" preamble, in the house style where it has one. */
export function reasonOf(v) {
  if (v.code === 'required') return 'This field is required.';
  if (v.code === 'dependentRequired') return `This field is required when ${/when property (\S+)/.exec(v.message)?.[1] ?? 'another field'} is present.`;
  if (v.code === 'additionalProperties' || v.code === 'unevaluatedProperties') return 'This field is not allowed here.';
  if (v.code === 401) return 'Authorization is missing or is not a bearer token.';
  if (v.code === 415) return `The Content-Type is not accepted here. ${v.message}.`;
  const message = String(v.message || '').replace(/^(?:Request|Response) (?:body(?: property \S+)?|(?:query|path) parameter \S+|header \S+) /, '');
  return message ? `${message[0].toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? '' : '.'}` : 'The request breaks a rule of this operation.';
}

/** The violations worth telling: without the "must match then" that comes with a specific one. */
export function significant(violations) {
  const specific = violations.filter((v) => !COMPOSITE.has(v.code));
  return specific.length ? specific : violations;
}

/**
 * ErrorDetail entries for violations, one per field and reason, specific ones before composites.
 * `parameters` are the operation's parameter names: Prism reports path parameters in lower case.
 */
export function detailsOf(violations, parameters = []) {
  const chosen = significant(violations.filter((v) => v.severity === undefined || v.severity === 'Error'));
  const seen = new Set();
  const details = [];
  for (const v of chosen) {
    const field = fieldOf(v, parameters);
    const reason = reasonOf(v);
    const key = `${field} ${reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push(field === undefined ? { reason } : { field, reason });
  }
  return details;
}

/** A violation as a short phrase: which side, where, what is wrong (`response body.data.0.size: Must be integer.`). */
export function describeViolation(v, parameters = []) {
  const [side = 'request', where] = v.location || [];
  const field = fieldOf(v, parameters);
  return `${side}${where ? ` ${where}` : ''}${field ? `.${field}` : ''}: ${reasonOf(v)}`;
}

/**
 * What to answer for a Prism problem+json body: status and ErrorResponse, plus the violations
 * to keep in `sl-violations`. `proxy` says Prism stood in front of an implementation.
 */
export function fromProblem(problem, { proxy = false, method, path, parameters } = {}) {
  const type = typeof problem?.type === 'string' && problem.type.startsWith(PRISM_ERRORS) ? problem.type.slice(PRISM_ERRORS.length) : null;
  const validation = Array.isArray(problem?.validation) ? problem.validation : [];
  const code = type ?? 'ERROR';
  const detail = problem?.detail || problem?.title || 'Prism could not answer this request.';
  switch (type) {
    case 'NO_PATH_MATCHED_ERROR':
      return { status: 404, errors: [{ reason: `No operation of the API answers ${path}.` }], violations: [violation(['request', 'path'], code, detail)] };
    case 'NO_METHOD_MATCHED_ERROR':
      return { status: 405, errors: [{ reason: `${method} is not an operation of ${path}.` }], violations: [violation(['request', 'method'], code, detail)] };
    case 'NOT_FOUND': // a Prefer code or example the operation does not declare
      return { status: 400, errors: [{ reason: `${detail.replace(/\.$/, '')}.` }], violations: [violation(['request', 'header', 'prefer'], code, detail)] };
    case 'NOT_ACCEPTABLE': // an Accept header no declared content type satisfies
      return { status: 400, errors: [{ reason: `The Accept header asks for a media type this operation does not answer with (${detail.replace(/\.$/, '')}).` }], violations: [violation(['request', 'header', 'accept'], code, detail)] };
    case 'UNPROCESSABLE_ENTITY':
    case 'INVALID_CONTENT_TYPE': {
      const errors = validation.length ? detailsOf(validation.map((v) => ({ ...v, location: v.location?.[0] === 'request' ? v.location : ['request', ...(v.location || [])] })), parameters) : [{ reason: `${detail.split('\n')[0]}.` }];
      return { status: 400, errors, violations: validation.length ? validation : [violation(['request'], code, detail)] };
    }
    case 'VIOLATIONS': {
      // --errors and an answer that breaks its schema: the example (mock) or the implementation (proxy).
      const who = proxy ? "The implementation's answer breaks the contract" : "The mock's example breaks its own schema (a defect of the spec)";
      const errors = validation.map((v) => ({ reason: `${who}: ${describeViolation(v)}` }));
      return { status: proxy ? 502 : 500, errors: errors.length ? errors : [{ reason: `${who}.` }], violations: validation };
    }
    case 'UPSTREAM_NOT_IMPLEMENTED':
      return { status: 502, errors: [{ reason: 'The implementation answered 501 Not Implemented.' }], violations: [violation(['response'], code, detail)] };
    default:
      if (proxy && !type) return { status: 502, errors: [{ reason: `The implementation could not be reached: ${detail}` }], violations: [violation(['response'], code, detail)] };
      return { status: problem?.status >= 400 && problem.status < 600 ? problem.status : 500, errors: [{ reason: `Prism: ${detail}` }], violations: [violation(['request'], code, detail)] };
  }
}
