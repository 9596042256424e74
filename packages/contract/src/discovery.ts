// Phase: discovery of the target. What it is (the mock or an implementation, and why the kit
// thinks so), what the run may do there (safety), which token it sends and how tokens are
// redacted, and what cannot be checked on it (listed as not run).
import { pointerOf } from '@cloudapi/spec/schema-views';
import { secretNamesOf, type TargetKind } from './checks.js';
import { MOCK_TOKEN } from './contract-types.js';
import type { RunState } from './run-state.js';
import { tokenNames, tokenRedactor } from './redaction.js';
import { detectTarget, isLoopback, safetyOf } from './target.js';
import { fullAccess } from './tokens.js';

/** Fills the state's target, safety, tokens and notes; false when the target could not be reached (the reason in `state.abort`). */
export async function discoverTarget(s: RunState): Promise<boolean> {
  const { options, baseUrl, document } = s;
  let detection = { target: options.target as TargetKind | null, reason: 'chosen with --target' };
  if (!options.target || options.target === 'auto') detection = await detectTarget(baseUrl, s.transport);
  s.detection = detection.reason;
  if (!detection.target) {
    s.abort = `the target could not be reached: ${detection.reason}`;
    return false;
  }
  const target = detection.target;
  s.target = target;
  s.safety = safetyOf(target, !options.remote && await isLoopback(baseUrl), Boolean(options.allowWrites), Boolean(options.allowDestructive));
  const tokens = options.tokens ?? [];
  s.tokens = tokens;
  // A dry run lists requests with a placeholder where the token goes.
  const mainToken = options.token ?? tokens.find(fullAccess)?.token ?? (target === 'mock' ? MOCK_TOKEN : s.dry ? 'dry-run-token' : undefined);
  s.mainToken = mainToken;
  // Tokens never reach a report: the main one reads $TOKEN, those of --tokens $TOKEN_1, $TOKEN_2…
  s.redact = tokenRedactor(tokenNames(mainToken, tokens));
  s.tokenNote = options.token ? 'given with --token' : tokens.find(fullAccess) ? 'the full-access token of --tokens' : target === 'mock' ? 'none given; a placeholder is sent to the mock' : 'none given: secured operations cannot be proven';
  s.ctx = {
    document, views: s.views, target, undeclared: options.undeclared ?? 'warn', maxResponseMs: options.maxResponseMs, secretNames: secretNamesOf(document),
    errorSchemaPointer: document.components?.schemas?.ErrorResponse ? pointerOf('components', 'schemas', 'ErrorResponse') : null,
  };
  s.stateful = target === 'implementation';
  if (s.stateful) s.notes.push(`what the run creates is named with its tag ${s.namer.tag} (labels and domain names unique per run)`);
  s.settleMs = options.settleMs ?? (s.stateful ? 5000 : 0);
  if (target === 'mock') {
    s.notRun.push({ check: 'stateful sequences (read after create, update read back, listed after create, 404 and unlisted after delete)', reason: 'the mock keeps no state' });
    s.notRun.push({ check: 'walking every page of a list', reason: 'the mock answers every page with the same example' });
    s.notRun.push({ check: 'scope, grant and restricted-user checks (403)', reason: 'the mock checks no scopes' });
    s.notRun.push({ check: '401 for an unknown token, 401 for two Authorization headers', reason: 'the mock accepts any bearer token' });
    if (s.sites.length) s.notRun.push({ check: 'pre-signed URLs used (an upload, read back, refused with another Content-Type, removed)', reason: 'the mock hands out example URLs that lead nowhere' });
  } else if (!tokens.length) {
    s.notRun.push({ check: 'scope, grant and restricted-user checks (403)', reason: 'no --tokens file: the kit knows no token with fewer rights' });
  }
  if (!options.examples) s.notRun.push({ check: 'generated requests (fast-check)', reason: '--examples 0' });
  return true;
}
