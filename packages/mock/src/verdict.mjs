// What the validating proxy makes of one exchange: a line per violation, naming the operation and
// the field, and the counts it adds to. The implementation breaks the contract when its answer
// does, or when it accepts a request that does; a request it refuses for breaking the contract is
// what it should do, so that is counted, not told.
import { describeViolation, significant } from './errors.mjs';

export const NO_COUNTS = Object.freeze({ exchanges: 0, responseViolations: 0, acceptedInvalid: 0, refusedInvalid: 0, unanswered: 0 });

/**
 * @param {{op?: object, method: string, path: string, status: number, violations: object[], problem: boolean}} exchange
 * @returns {{counts: typeof NO_COUNTS, lines: string[]}} `lines` starting with ✖ are violations, with ⚠ warnings
 */
export function judge({ op, method, path, status, violations, problem }) {
  const counts = { ...NO_COUNTS, exchanges: 1 };
  const lines = [];
  const label = op ? `${op.operationId} (${method} ${op.template})` : `${method} ${path.split('?')[0]}`;
  const said = (v) => describeViolation(v, op?.parameters);
  if (problem && status >= 500 && !violations.length) counts.unanswered++;
  const ofResponse = violations.filter((v) => v.location?.[0] === 'response');
  const ofRequest = violations.filter((v) => v.location?.[0] !== 'response');
  for (const v of [...significant(ofResponse), ...significant(ofRequest)]) {
    if (v.severity !== 'Error') lines.push(`⚠ ${label} → ${status}: ${said(v)}`);
    else if (v.location?.[0] === 'response') {
      counts.responseViolations++;
      lines.push(`✖ ${label} → ${status}: ${said(v)}`);
    } else if (status < 400) {
      counts.acceptedInvalid++;
      lines.push(`✖ ${label} → ${status}: accepted an invalid request, ${said(v)}`);
    }
  }
  if (status >= 400 && ofRequest.some((v) => v.severity === 'Error')) counts.refusedInvalid++;
  return { counts, lines };
}

/** Adds `counts` into `total`. */
export function addCounts(total, counts) {
  for (const key of Object.keys(NO_COUNTS)) total[key] += counts[key] ?? 0;
  return total;
}
