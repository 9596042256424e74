// Signing pre-signed URLs (presigned.ts serves them): the URL's fields, the HMAC-SHA256 over them
// with the database's secret, and the path a create answers. No Node built-in here: the browser
// engine signs the same way (platform/).
import type { Clock } from '../../core/clock.js';
import type { Db, Trx } from '../../core/store/db.js';
import { platform } from '../../platform/node.js';

export const OBJECT_URL_PATH = '/object-storage-urls';
/** The largest object a pre-signed URL takes (objects live in the database). */
export const MAX_OBJECT_BYTES = 16 * 1024 * 1024;

export type UrlMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

export interface Signed {
  method: string;
  cluster: string;
  bucket: string;
  name: string;
  expires: number;
  contentType?: string;
  /** The token id of the user who made the URL. */
  user: string;
}

const secrets = new WeakMap<object, string>();

/** The signing secret of this database (made by the migration), read once per store. */
export async function signingSecret(db: Db | Trx): Promise<string> {
  let secret = secrets.get(db);
  if (secret === undefined) {
    const row = await db.selectFrom('object_storage_secrets').select('value').where('name', '=', 'url_signing').executeTakeFirstOrThrow();
    secret = row.value;
    secrets.set(db, secret);
  }
  return secret;
}

export function signature(secret: string, s: Signed): string {
  // Fields joined by a newline, which none may hold unescaped: JSON keeps them apart.
  return platform.hmacSha256Hex(secret, JSON.stringify([s.method, s.cluster, s.bucket, s.name, s.expires, s.contentType ?? null, s.user]));
}

/** The path and query of a URL allowing `method` on the object until `expiresIn` seconds from now. */
export async function presignedPath(db: Db, clock: Clock, request: Omit<Signed, 'expires'> & { expiresIn: number }): Promise<string> {
  const expires = Math.floor(clock.now() / 1000) + request.expiresIn;
  const { expiresIn: _, ...rest } = request;
  const signed: Signed = { ...rest, expires };
  const query = new URLSearchParams({ expires: String(expires) });
  if (request.contentType !== undefined) query.set('content_type', request.contentType);
  query.set('user', request.user);
  query.set('signature', signature(await signingSecret(db), signed));
  // The name is one path segment (`/` escaped too): dot segments such as `a/../b` would be
  // collapsed by clients before the request is sent, and the signature would no longer match.
  return `${OBJECT_URL_PATH}/${encodeURIComponent(request.cluster)}/${encodeURIComponent(request.bucket)}/${encodeURIComponent(request.name)}?${query}`;
}

/** The month transfer is counted in, `2026-11`. */
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);
