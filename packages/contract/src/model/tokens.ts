// Tokens with known scopes, grants and restrictions, in the file format the reference server reads
// (TOKENS_FILE): [{"token", "scopes": "*" or "volumes:read_only domains:read_write …",
// "grants": "all" or ["add_volumes", …], "restricted": false}]. From them the kit picks, for each
// operation, a token that lacks exactly what the operation needs, and expects 403.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Operation } from './operations.js';

export interface TokenEntry {
  token: string;
  scopes: '*' | string;
  grants: 'all' | string[];
  restricted?: boolean;
}

export function readTokensFile(file: string): TokenEntry[] {
  let text: string;
  let parsed: unknown;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`--tokens ${file}: ${(error as Error).message}`);
  }
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // The parser's message quotes the text around the mistake, which may be a token: only where it is.
    const where = /position \d+(?: \(line \d+ column \d+\))?/.exec((error as Error).message)?.[0];
    throw new Error(`--tokens ${file}: not valid JSON${where ? ` (at ${where})` : ''}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`--tokens ${file}: expected a JSON array of {token, scopes, grants, restricted}`);
  return parsed.map((entry, i) => {
    const e = entry as Partial<TokenEntry>;
    if (!e || typeof e.token !== 'string' || !e.token) throw new Error(`--tokens ${file}: entry ${i} has no "token" string`);
    if (typeof e.scopes !== 'string') throw new Error(`--tokens ${file}: entry ${i} ("scopes") must be "*" or a space-separated list of scopes`);
    if (e.grants !== undefined && e.grants !== 'all' && !Array.isArray(e.grants)) throw new Error(`--tokens ${file}: entry ${i} ("grants") must be "all" or a list`);
    return { token: e.token, scopes: e.scopes, grants: e.grants ?? 'all', restricted: Boolean(e.restricted) };
  });
}

/**
 * Writes a tokens file that only its owner can read (mode 0600; a folder it has to make, 0700):
 * it holds a full-access token. A file already there is replaced by a new one renamed over it, so
 * its old mode never applies to the new tokens.
 */
export function writeTokensFile(file: string, entries: TokenEntry[]): void {
  const target = path.resolve(file);
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const temporary = `${target}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(entries, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

const scopeList = (entry: TokenEntry): string[] => (entry.scopes.trim() === '*' ? ['*'] : entry.scopes.split(/[\s,]+/).filter(Boolean));

/** Whether the token's scopes give `scope` (`X:read_write` gives `X:read_only` too). */
export function hasScope(entry: TokenEntry, scope: string): boolean {
  const scopes = scopeList(entry);
  if (scopes.includes('*')) return true;
  const [area, level] = scope.split(':');
  return scopes.includes(scope) || (level === 'read_only' && scopes.includes(`${area}:read_write`));
}

export const hasGrant = (entry: TokenEntry, grant: string): boolean => entry.grants === 'all' || entry.grants.includes(grant);
export const fullAccess = (entry: TokenEntry): boolean => scopeList(entry).includes('*') && entry.grants === 'all' && !entry.restricted;

/** Account grants (`add_volumes`) as opposed to permissions on an object (`volume:read_only`) and the unrestricted-user rule. */
export const accountGrants = (op: Operation): string[] => op.grants.filter((g) => /^add_/.test(g));

export interface Probe {
  /** the check's name */
  name: string;
  token: TokenEntry;
  /** what the token lacks, in words */
  lacks: string;
  expect: 403 | 'success';
  /** the request body must carry tags (restricted users may not change them) */
  withTags?: boolean;
}

const satisfiesAll = (entry: TokenEntry, scopes: string[]) => scopes.every((s) => hasScope(entry, s));
const fitsOtherwise = (entry: TokenEntry, op: Operation) => accountGrants(op).every((g) => hasGrant(entry, g)) && !entry.restricted;

/**
 * The scope, grant and restriction probes for one operation from the tokens at hand, and the
 * probes wanted but impossible with them (said in the report).
 */
export function probesFor(op: Operation, tokens: readonly TokenEntry[]): { probes: Probe[]; missing: string[] } {
  const probes: Probe[] = [];
  const missing: string[] = [];
  if (op.security === 'public') return { probes, missing };
  for (const scope of op.scopes) {
    const others = op.scopes.filter((s) => s !== scope);
    const [area, level] = scope.split(':');
    const lacking = tokens.filter((t) => !hasScope(t, scope) && satisfiesAll(t, others) && fitsOtherwise(t, op));
    if (level === 'read_write') {
      const readOnly = lacking.find((t) => hasScope(t, `${area}:read_only`));
      if (readOnly) probes.push({ name: `403 for a read-only token (${area}:read_only) on a write`, token: readOnly, lacks: scope, expect: 403 });
      else missing.push(`a token with ${area}:read_only but not ${scope}`);
    }
    const none = lacking.find((t) => !hasScope(t, `${area}:read_only`));
    if (none) probes.push({ name: `403 for a token without ${area} scopes`, token: none, lacks: scope, expect: 403 });
    else missing.push(`a token without any ${area} scope`);
  }
  // The scopes are honoured, not only "*": a token with exactly the needed scopes succeeds (reads only, nothing changes).
  if (!op.writes && op.scopes.length) {
    const exact = tokens.find((t) => !scopeList(t).includes('*') && satisfiesAll(t, op.scopes) && fitsOtherwise(t, op));
    if (exact) probes.push({ name: 'success for a token with just the scopes it needs', token: exact, lacks: '', expect: 'success' });
    else missing.push(`a token that is not "*" but has ${op.scopes.join(' and ')}`);
  }
  for (const grant of accountGrants(op)) {
    const without = tokens.find((t) => satisfiesAll(t, op.scopes) && !hasGrant(t, grant) && !t.restricted && accountGrants(op).filter((g) => g !== grant).every((g) => hasGrant(t, g)));
    if (without) probes.push({ name: `403 without the ${grant} grant`, token: without, lacks: `grant ${grant}`, expect: 403 });
    else missing.push(`a token with ${op.scopes.join(' and ') || 'its scopes'} but without the ${grant} grant`);
  }
  if (op.grants.includes('unrestricted_user')) {
    const restricted = tokens.find((t) => t.restricted && satisfiesAll(t, op.scopes) && accountGrants(op).every((g) => hasGrant(t, g)));
    if (restricted) probes.push({ name: '403 for a restricted user changing tags', token: restricted, lacks: 'an unrestricted user', expect: 403, withTags: true });
    else missing.push('a restricted token with the scopes it needs');
  }
  return { probes, missing };
}

/**
 * A tokens file that covers every probe for a document's scopes and grants: full access, all
 * read-only, one token per area without that area, one without grants, one restricted user.
 * For the reference server: `TOKENS_FILE=FILE npm run server`, then `--tokens FILE`.
 */
export function makeTokens(ops: Operation[]): TokenEntry[] {
  const scopes = [...new Set(ops.flatMap((op) => op.scopes))];
  const areas = [...new Set(scopes.map((s) => s.split(':')[0] as string))].sort();
  const grants = [...new Set(ops.flatMap((op) => accountGrants(op)))].sort();
  const token = (name: string) => `contract-${name}-${randomBytes(9).toString('base64url')}`;
  const all = (level: string, except?: string) => areas.filter((a) => a !== except).map((a) => `${a}:${level}`).join(' ');
  return [
    { token: token('full'), scopes: '*', grants: 'all', restricted: false },
    { token: token('read-only'), scopes: all('read_only'), grants: 'all', restricted: false },
    ...areas.map((area) => ({ token: token(`no-${area}`), scopes: `${all('read_write', area)}`, grants: 'all' as const, restricted: false })),
    ...areas.map((area) => ({ token: token(`${area}-read-only`), scopes: `${all('read_write', area)} ${area}:read_only`.trim(), grants: 'all' as const, restricted: false })),
    ...grants.map((grant) => ({ token: token(`no-${grant}`), scopes: '*', grants: grants.filter((g) => g !== grant), restricted: false })),
    { token: token('restricted'), scopes: '*', grants: 'all', restricted: true },
  ];
}
