// What an answer says about traffic rather than about the contract: the rate-limit headers
// (checked for their shape when present: Retry-After, X-RateLimit-Limit, -Remaining, -Reset), and
// the `x-fault` mark of an answer a target's fault injection made (FAULTS in the mock and the
// reference server), whose failures the report names as injected.
import { fail, pass, type Check } from './outcome.js';
import type { TargetKind } from '../transport/target.js';
import type { Answer } from '../transport/http.js';

const header = (answer: Answer, name: string): string | undefined => {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

const COUNT = /^\d+$/;
// RFC 9110 IMF-fixdate, the form a server sends.
const HTTP_DATE = /^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/;
// The reset is epoch seconds: after 2001-09-09 and before 2286, so not milliseconds nor a delta.
const EPOCH_SECONDS = /^\d{10}$/;

/** Shape checks of the rate-limit headers an answer carries; none when it carries none. */
export function rateLimitHeaderChecks(answer: Answer, target: TargetKind): Check[] {
  const checks: Check[] = [];
  const retryAfter = header(answer, 'retry-after');
  if (retryAfter !== undefined) {
    const name = 'Retry-After well-formed';
    checks.push(COUNT.test(retryAfter) || HTTP_DATE.test(retryAfter) ? pass(name, retryAfter) : fail(name, `Retry-After is "${retryAfter}": it must be whole seconds or an HTTP date`));
  }
  const limit = header(answer, 'x-ratelimit-limit');
  const remaining = header(answer, 'x-ratelimit-remaining');
  const reset = header(answer, 'x-ratelimit-reset');
  if (limit === undefined && remaining === undefined && reset === undefined) return checks;
  const name = 'X-RateLimit headers well-formed';
  const problems: string[] = [];
  if (limit === undefined || remaining === undefined || reset === undefined) problems.push('X-RateLimit-Limit, -Remaining and -Reset come together; this answer has only some of them');
  if (limit !== undefined && !(COUNT.test(limit) && Number(limit) >= 1)) problems.push(`X-RateLimit-Limit is "${limit}": it must be an integer of at least 1`);
  if (remaining !== undefined && !COUNT.test(remaining)) problems.push(`X-RateLimit-Remaining is "${remaining}": it must be an integer of at least 0`);
  // (A mock's headers are examples or generated values, each valid alone but not consistent.)
  if (target === 'implementation' && limit !== undefined && remaining !== undefined && COUNT.test(limit) && COUNT.test(remaining) && Number(remaining) > Number(limit)) problems.push(`X-RateLimit-Remaining ${remaining} is more than X-RateLimit-Limit ${limit}`);
  if (reset !== undefined && !EPOCH_SECONDS.test(reset)) problems.push(`X-RateLimit-Reset is "${reset}": it must be seconds since the Unix epoch`);
  if (target === 'implementation' && answer.status === 429 && remaining !== undefined && remaining !== '0') problems.push(`a 429 says X-RateLimit-Remaining ${remaining}, not 0`);
  checks.push(problems.length ? fail(name, problems.join('; ')) : pass(name, `${remaining}/${limit} left until ${reset}`));
  return checks;
}

/** The kinds of fault the target says it injected into this answer (`x-fault`), or undefined. */
export function injectedFault(answer: Answer): string | undefined {
  return header(answer, 'x-fault') || undefined;
}

/** Failed checks of an answer marked `x-fault` say so: they are the target's injected faults. */
export function markInjected(checks: Check[], answer: Answer): Check[] {
  const fault = injectedFault(answer);
  if (!fault) return checks;
  return checks.map((check) => (check.outcome === 'fail' ? { ...check, reason: `[injected fault: ${fault}] ${check.reason}`, injected: fault } : check));
}
