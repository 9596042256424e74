// Phase: discovery of the target. What it is (the mock or an implementation, and why the kit
// thinks so), what the run may do there (safety), which token it sends and how tokens are
// redacted, and what cannot be checked on it (listed as not run). It makes the part of the plan
// that depends on the target (run/plan.ts `TargetPlan`).
import { formatPointer } from '@cloudapi/spec/json-pointer';
import { fullAccess, type TokenEntry } from '../model/tokens.js';
import type { Ledger } from '../run/ledger.js';
import type { Basis, TargetPlan } from '../run/plan.js';
import { tokenNames, tokenRedactor } from '../run/redaction.js';
import { DEFAULTS, type Settings } from '../run/settings.js';
import { MOCK_TOKEN } from '../run/types.js';
import { toCurl } from '../transport/http.js';
import { detectTarget, isLoopback, safetyOf, type TargetKind } from '../transport/target.js';

/** A target that did not answer: why, for the result. */
export interface Unreached { target: null; detection: string }

/** The target's part of the plan, or why the target could not be reached (then the reason is the ledger's `abort`). */
export async function discoverTarget(basis: Basis, ledger: Ledger): Promise<TargetPlan | Unreached> {
  const { settings } = basis;
  const detection = settings.target === 'auto' ? await detectTarget(settings.baseUrl, settings.transport) : { target: settings.target, reason: 'chosen with --target' };
  if (!detection.target) {
    ledger.abort = `the target could not be reached: ${detection.reason}`;
    return { target: null, detection: detection.reason };
  }
  const target = detection.target;
  const stateful = target === 'implementation';
  const { tokens } = settings;
  const mainToken = mainTokenOf(settings, target);
  // Tokens never reach a report: the main one reads $TOKEN, those of --tokens $TOKEN_1, $TOKEN_2…
  const redact = tokenRedactor(tokenNames(mainToken, tokens));
  const plan: TargetPlan = {
    target, detection: detection.reason, stateful, tokens, mainToken, redact,
    safety: safetyOf(target, !settings.remote && await isLoopback(settings.baseUrl), settings.allowWrites, settings.allowDestructive),
    tokenNote: settings.token ? 'given with --token' : tokens.find(fullAccess) ? 'the full-access token of --tokens' : target === 'mock' ? 'none given; a placeholder is sent to the mock' : 'none given: secured operations cannot be proven',
    ctx: {
      document: basis.document, views: basis.views, target, undeclared: settings.undeclared, maxResponseMs: settings.maxResponseMs, secretNames: basis.secretNames,
      errorSchemaPointer: basis.document.components?.schemas?.ErrorResponse ? formatPointer(['components', 'schemas', 'ErrorResponse'], { fragment: true }) : null,
    },
    settleMs: settings.settleMs ?? DEFAULTS.settleMs[target],
    concurrency: settings.concurrency ?? DEFAULTS.concurrency[target],
    authFor: (op) => (op.security === 'public' || !mainToken ? { kind: 'none' } : { kind: 'token', token: mainToken }),
    toCurl: (request) => toCurl(request, redact),
  };
  Object.freeze(plan);
  if (stateful) ledger.notes.push(`what the run creates is named with its tag ${basis.namer.tag} (labels and domain names unique per run)`);
  noteNotRun(basis, plan, ledger);
  return plan;
}

// A dry run lists requests with a placeholder where the token goes.
function mainTokenOf(settings: Settings, target: TargetKind): string | undefined {
  return settings.token ?? settings.tokens.find(fullAccess)?.token ?? (target === 'mock' ? MOCK_TOKEN : settings.dry ? 'dry-run-token' : undefined);
}

/** What cannot be checked on this target, listed as not run. */
function noteNotRun(basis: Basis, plan: { target: TargetKind; tokens: readonly TokenEntry[] }, ledger: Ledger): void {
  if (plan.target === 'mock') {
    ledger.notRun.push({ check: 'stateful sequences (read after create, update read back, listed after create, 404 and unlisted after delete)', reason: 'the mock keeps no state' });
    ledger.notRun.push({ check: 'walking every page of a list', reason: 'the mock answers every page with the same example' });
    ledger.notRun.push({ check: 'scope, grant and restricted-user checks (403)', reason: 'the mock checks no scopes' });
    ledger.notRun.push({ check: '401 for an unknown token, 401 for two Authorization headers', reason: 'the mock accepts any bearer token' });
    if (basis.sites.length) ledger.notRun.push({ check: 'pre-signed URLs used (an upload, read back, refused with another Content-Type, removed)', reason: 'the mock hands out example URLs that lead nowhere' });
  } else if (!plan.tokens.length) {
    ledger.notRun.push({ check: 'scope, grant and restricted-user checks (403)', reason: 'no --tokens file: the kit knows no token with fewer rights' });
  }
  if (!basis.settings.examples) ledger.notRun.push({ check: 'generated requests (fast-check)', reason: '--examples 0' });
}
