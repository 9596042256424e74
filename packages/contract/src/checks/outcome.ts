// The outcome of a check, shared by every check and every phase that records one: a name, pass,
// fail, warn or skip, and the reason. It imports nothing, so any module may use it.
export type Outcome = 'pass' | 'fail' | 'warn' | 'skip';
export interface Check {
  name: string;
  outcome: Outcome;
  reason: string;
  /** The target's `x-fault` on the answer of a failed check: an injected fault (traffic-headers.ts). */
  injected?: string;
}

export const pass = (name: string, reason = ''): Check => ({ name, outcome: 'pass', reason });
export const fail = (name: string, reason: string): Check => ({ name, outcome: 'fail', reason });
export const warn = (name: string, reason: string): Check => ({ name, outcome: 'warn', reason });
export const skip = (name: string, reason: string): Check => ({ name, outcome: 'skip', reason });
