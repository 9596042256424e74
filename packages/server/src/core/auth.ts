// Bearer tokens from TOKENS_FILE, or one full-access token the server makes itself and keeps in
// DATA_DIR. The table of tokens and the checks of scopes and grants are in access.ts.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TokenTable } from './access.js';
import type { TokenEntry } from './access.js';
import type { ApiSpec } from './spec.js';

// Node-free, for the browser engine too (access.ts); kept here for the server's callers.
export { authenticate, bearerToken, hasAccountGrant, hasScope, TokenTable } from './access.js';
export type { AuthContext, PermissionLevel, TokenEntry } from './access.js';

const ENTRY_FIELDS = new Set(['token', 'scopes', 'grants', 'restricted']);

/** Reads and checks a tokens file; every problem names the entry. */
export function loadTokensFile(file: string, known: ApiSpec): TokenTable {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`TOKENS_FILE ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch (error) {
    throw new Error(`TOKENS_FILE ${file} is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(entries) || entries.length === 0) throw new Error(`TOKENS_FILE ${file} must hold a non-empty JSON array of {token, scopes, grants, restricted}`);
  const table = new TokenTable();
  entries.forEach((entry: any, index) => {
    const where = `TOKENS_FILE ${file}: entry ${index}`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new Error(`${where} must be an object`);
    for (const key of Object.keys(entry)) if (!ENTRY_FIELDS.has(key)) throw new Error(`${where}: unknown field "${key}" (fields: token, scopes, grants, restricted)`);
    if (typeof entry.token !== 'string' || entry.token === '' || /\s/.test(entry.token)) throw new Error(`${where}: token must be a non-empty string without spaces`);
    if (typeof entry.scopes !== 'string' || entry.scopes.trim() === '') throw new Error(`${where}: scopes must be "*" or a space-separated list such as "volumes:read_only domains:read_write"`);
    if (entry.grants !== undefined && entry.grants !== 'all' && !(Array.isArray(entry.grants) && entry.grants.every((g: unknown) => typeof g === 'string'))) {
      throw new Error(`${where}: grants must be "all" or a list of strings such as ["add_volumes"]`);
    }
    if (entry.restricted !== undefined && typeof entry.restricted !== 'boolean') throw new Error(`${where}: restricted must be true or false`);
    table.add(entry as TokenEntry, known, where);
  });
  return table;
}

/**
 * The full-access token made when no TOKENS_FILE is given. It is kept in `<DATA_DIR>/token`
 * (mode 0600), so a restart on the same data directory prints the same token.
 */
export function defaultToken(dataDir: string): { token: string; file: string; created: boolean } {
  const file = path.join(dataDir, 'token');
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (token) return { token, file, created: false };
  }
  mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(24).toString('hex');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, file, created: true };
}
