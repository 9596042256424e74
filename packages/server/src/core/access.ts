// Bearer tokens kept as SHA-256 hashes (a valid token, once presented, also as sent: see
// TokenTable), and checked against each operation's scopes and grants from the bundle. No Node
// built-in here: the browser engine (src/engine.ts) checks tokens the same way; reading the
// tokens file and making the default token are the server's (auth.ts).
import { forbidden, unauthorized } from './errors.js';
import type { ApiSpec, OperationSpec } from './spec.js';
import { toHex } from '../platform/bytes.js';
import { platform } from '../platform/node.js';

export type PermissionLevel = 'read_only' | 'read_write';

/** Who is calling: what the token's entry in the tokens file says. */
export interface AuthContext {
  /** A stable, non-secret id of the token (the start of its hash): object grants are kept by it. */
  tokenId: string;
  /** The user name shown where the API names a user (`created_by`): `user-<tokenId>`. */
  userName: string;
  /** `*` or a set of scopes; `<area>:read_write` implies `<area>:read_only`. */
  scopes: '*' | ReadonlySet<string>;
  /** `all` or the grants listed: account grants, `<entity>:<level>`, `<entity>:<id>:<level>`. */
  grants: 'all' | ReadonlySet<string>;
  restricted: boolean;
}

export interface TokenEntry {
  token: string;
  scopes: string;
  grants?: 'all' | string[];
  restricted?: boolean;
}

export class TokenTable {
  private readonly byHash = new Map<string, AuthContext>();
  // Tokens already found valid, so a request does not hash its token again (a SHA-256 costs as
  // much as a point read). Only tokens of the table get here, so it holds at most one per entry.
  private readonly known = new Map<string, AuthContext>();

  add(entry: TokenEntry, known: ApiSpec | null = null, where = 'token'): AuthContext {
    const hash = sha256(entry.token);
    if (this.byHash.has(hash)) throw new Error(`${where}: the same token is listed twice`);
    const context = toContext(entry, hash, known, where);
    this.byHash.set(hash, context);
    return context;
  }

  lookup(token: string): AuthContext | undefined {
    let context = this.known.get(token);
    if (!context) {
      context = this.byHash.get(sha256(token));
      if (context) this.known.set(token, context);
    }
    return context;
  }

  get size(): number {
    return this.byHash.size;
  }
}

function sha256(value: string): string {
  return toHex(platform.sha256(value));
}

function toContext(entry: TokenEntry, hash: string, known: ApiSpec | null, where: string): AuthContext {
  const tokenId = hash.slice(0, 12);
  const scopeList = entry.scopes.trim() === '*' ? '*' : entry.scopes.split(/\s+/).filter(Boolean);
  if (scopeList !== '*' && known) {
    for (const scope of scopeList) {
      if (!known.scopes.has(scope)) throw new Error(`${where}: scopes: unknown scope "${scope}" (known: "*" or ${[...known.scopes].sort().join(', ')})`);
    }
  }
  const grants = entry.grants === undefined || entry.grants === 'all' ? 'all' : new Set(entry.grants);
  if (grants !== 'all' && known) {
    for (const grant of grants) {
      const problem = grantProblem(grant, known);
      if (problem) throw new Error(`${where}: grants: "${grant}" ${problem}`);
    }
  }
  return { tokenId, userName: `user-${tokenId}`, scopes: scopeList === '*' ? '*' : new Set(scopeList), grants, restricted: entry.restricted === true };
}

function grantProblem(grant: string, known: ApiSpec): string | null {
  const parts = grant.split(':');
  if (parts.length === 1) {
    return known.accountGrants.has(grant) ? null : `is not an account grant (known: ${[...known.accountGrants].sort().join(', ')})`;
  }
  const [entity, ...rest] = parts;
  const level = rest[rest.length - 1];
  if (!known.permissionEntities.has(entity!)) return `names an unknown kind of object "${entity}" (known: ${[...known.permissionEntities].sort().join(', ')})`;
  if (level !== 'read_only' && level !== 'read_write') return 'must end in read_only or read_write';
  if (rest.length > 2 || (rest.length === 2 && rest[0] === '')) return 'must be <entity>:<level> or <entity>:<id>:<level>';
  return null;
}

export function hasScope(auth: AuthContext, scope: string): boolean {
  if (auth.scopes === '*') return true;
  if (auth.scopes.has(scope)) return true;
  return scope.endsWith(':read_only') && auth.scopes.has(scope.replace(/:read_only$/, ':read_write'));
}

export function hasAccountGrant(auth: AuthContext, grant: string): boolean {
  return auth.grants === 'all' || auth.grants.has(grant);
}

/** The `Authorization` header's bearer token (scheme case-insensitive), or why there is none. */
export function bearerToken(header: string | undefined): { token: string } | { problem: string } {
  if (header === undefined || header === '') return { problem: 'This operation needs a token: send "Authorization: Bearer <token>"' };
  const match = /^\s*bearer[ \t]+([^\s]+)\s*$/i.exec(header);
  if (!match) return { problem: 'The Authorization header must be "Bearer <token>"' };
  return { token: match[1]! };
}

/**
 * Who may call the operation: null for an anonymous call where that is allowed; throws 401 for a
 * missing or unknown token, 403 naming the missing scope or grant.
 */
export function authenticate(op: OperationSpec, header: string | undefined, tokens: TokenTable, conditionalGrants: ReadonlySet<string>): AuthContext | null {
  if (op.access === 'public') return null;
  if (op.access === 'optional' && (header === undefined || header === '')) return null;
  const bearer = bearerToken(header);
  if ('problem' in bearer) throw unauthorized(bearer.problem);
  const auth = tokens.lookup(bearer.token);
  if (!auth) throw unauthorized('The token is not valid');
  if (!op.scopeAlternatives.some((scopes) => scopes.every((s) => hasScope(auth, s)))) {
    const missing = op.scopeAlternatives.map((scopes) => scopes.filter((s) => !hasScope(auth, s)))
      .sort((a, b) => a.length - b.length)[0] ?? [];
    throw forbidden(`This token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(' and ')} that ${op.operationId} needs`);
  }
  for (const grant of op.grants) {
    if (grant.includes(':') || conditionalGrants.has(grant)) continue; // object permissions: checked by the handler
    if (grant === 'unrestricted_user') {
      if (auth.restricted) throw forbidden(`${op.operationId} needs an unrestricted user; this token belongs to a restricted one`);
    } else if (!hasAccountGrant(auth, grant)) {
      throw forbidden(`This user lacks the grant ${grant} that ${op.operationId} needs`);
    }
  }
  return auth;
}
