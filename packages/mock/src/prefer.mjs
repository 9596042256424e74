// `Prefer: code=…, example=…, dynamic=…` picks the mock's answer. Prism answers a status or an
// example the operation does not declare with an undeclared 404 or 422; the front layer checks
// the preferences against the operation first and refuses with a 400 that lists what is declared.
// Prism reads the same settings from `__code`, `__example` and `__dynamic` query parameters when
// there is no Prefer header; those are checked the same way.
import parsePreferHeader from 'parse-prefer-header';

const SUCCESS = /^2\d\d$/;

function list(values) {
  return values.length ? values.join(', ') : 'none';
}

/**
 * Checks the preferences of a request to `op` (see routes.mjs).
 * @param {object} op
 * @param {string|undefined} preferHeader
 * @param {URLSearchParams} [query] the query, when it may hold `__code` and the like
 * @returns {{error: string} | {prefer?: string, example?: string}} `prefer`, when set, is the header
 *   to send Prism instead: an example of an error response needs its status named, or Prism looks
 *   for it among the success examples only.
 */
export function checkPreferences(op, preferHeader, query) {
  const fromHeader = preferHeader !== undefined;
  const prefs = fromHeader
    ? parsePreferHeader(preferHeader)
    : { code: query?.get('__code') ?? undefined, example: query?.get('__example') ?? undefined, dynamic: query?.get('__dynamic') ?? undefined };
  const say = (name, value) => (fromHeader ? `Prefer: ${name}=${value}` : `__${name}=${value}`);
  const statuses = [...op.examples.keys()];

  if (prefs.dynamic !== undefined && prefs.dynamic !== 'true' && prefs.dynamic !== 'false') {
    return { error: `${say('dynamic', prefs.dynamic)} is not true or false.` };
  }
  let code = prefs.code;
  if (code !== undefined) {
    code = String(code);
    if (!/^\d{3}$/.test(code)) return { error: `${say('code', code)} is not a status code; ${op.operationId} declares ${list(statuses)}.` };
    if (!op.examples.has(code)) return { error: `${say('code', code)} asks for a response ${op.operationId} does not declare; it declares ${list(statuses)}.` };
  }
  const example = prefs.example === undefined ? undefined : String(prefs.example);
  if (example === undefined) return {};

  if (code !== undefined) {
    if (op.examples.get(code).has(example)) return { example };
    return { error: `${say('example', example)}: the ${code} response of ${op.operationId} has no example of that name; it has ${list([...op.examples.get(code)])}.` };
  }
  const holders = statuses.filter((status) => op.examples.get(status).has(example));
  if (holders.length === 0) {
    const named = statuses.map((status) => `${status}: ${list([...op.examples.get(status)])}`).join('; ');
    return { error: `${say('example', example)}: ${op.operationId} has no example of that name (${named}).` };
  }
  if (holders.some((status) => SUCCESS.test(status)) || !fromHeader) return { example };
  return { example, prefer: `${preferHeader}, code=${holders[0]}` };
}
