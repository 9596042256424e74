// Object Storage rows: their table types, lookups, and how a row becomes the API's Bucket or key.
import type { components } from '@cloudapi/types';
import type { Generated, Selectable } from 'kysely';
import { timestamp } from '../../core/clock.js';
import type { Catalogue } from '../../core/catalogue.js';
import { notFound } from '../../core/errors.js';
import type { Db, Trx } from '../../core/store/db.js';

type Schemas = components['schemas'];
export type Bucket = Schemas['Bucket'];
export type ObjectAcl = Schemas['ObjectStorageAcl'];
export type BucketAccess = Schemas['AccessKeyBucketAccess'];
export type AccessKey = Schemas['AccessKey'];

export interface BucketTable {
  id: Generated<number>;
  cluster: string;
  label: string;
  acl: ObjectAcl;
  cors_enabled: number;
  created: number;
}

export interface BucketObjectTable {
  bucket_id: number;
  name: string;
  size: number;
  etag: string;
  content_type: string;
  acl: ObjectAcl;
  /** The user (token id) that made the pre-signed URL that wrote it. */
  owner: string;
  last_modified: number;
  data: Buffer;
}

export interface BucketCertificateTable {
  bucket_id: number;
  certificate: string;
  /** Written on upload, read by nothing: no answer carries it. */
  private_key: string;
  created: number;
}

export interface AccessKeyTable {
  id: Generated<number>;
  label: string;
  access_key: string;
  /** SHA-256 of the secret key, which is shown only in the create's answer. */
  secret_hash: string;
  /** JSON list of `BucketAccess`, or null for an unlimited key. */
  bucket_access: string | null;
  created: number;
}

declare module '../../core/store/schema.js' {
  interface Database {
    buckets: BucketTable;
    bucket_objects: BucketObjectTable;
    bucket_certificates: BucketCertificateTable;
    access_keys: AccessKeyTable;
    object_storage_transfer: { month: string; used: number };
    object_storage_secrets: { name: string; value: string };
  }
}

export type BucketRow = Selectable<BucketTable>;

/**
 * S3's bucket naming rule: the label is the first part of the bucket's hostname
 * (`<label>.<cluster domain>`), so it must be a valid one.
 */
export const BUCKET_LABEL = /^(?=.{3,63}$)[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/;

/** The account's bucket `label` in `cluster`, or 404 (also when another account holds the label). */
export async function bucketOrNotFound(db: Db | Trx, catalogue: Catalogue, cluster: string, label: string): Promise<BucketRow> {
  if (!catalogue.cluster(cluster)) throw notFound(`Cluster ${cluster} does not exist`);
  const row = await db.selectFrom('buckets').selectAll().where('cluster', '=', cluster).where('label', '=', label).executeTakeFirst();
  if (!row) throw notFound(`Bucket ${label} does not exist in cluster ${cluster}`);
  return row;
}

/** Buckets as the API shows them; their object counts and sizes in one query for all of them. */
export async function toBuckets(db: Db | Trx, catalogue: Catalogue, rows: BucketRow[]): Promise<Bucket[]> {
  const ids = rows.map((r) => r.id);
  const totals = ids.length
    ? await db.selectFrom('bucket_objects').select((eb) => ['bucket_id', eb.fn.countAll<number>().as('objects'), eb.fn.sum<number>('size').as('size')])
      .where('bucket_id', 'in', ids).groupBy('bucket_id').execute()
    : [];
  const byId = new Map(totals.map((t) => [t.bucket_id, t]));
  return rows.map((row) => {
    const total = byId.get(row.id);
    return {
      label: row.label,
      cluster: row.cluster,
      hostname: `${row.label}.${catalogue.cluster(row.cluster)?.domain ?? row.cluster}`,
      created: timestamp(row.created),
      size: Number(total?.size ?? 0),
      objects: Number(total?.objects ?? 0),
    };
  });
}

export async function toBucket(db: Db | Trx, catalogue: Catalogue, row: BucketRow): Promise<Bucket> {
  return (await toBuckets(db, catalogue, [row]))[0]!;
}

/** A key as every answer but the create's shows it: the secret as the service's placeholder. */
export function toAccessKey(row: Selectable<AccessKeyTable>): AccessKey {
  const access = row.bucket_access === null ? null : JSON.parse(row.bucket_access) as BucketAccess[];
  return { id: row.id, label: row.label, access_key: row.access_key, secret_key: '[REDACTED]', limited: access !== null, bucket_access: access };
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** The grants each canned ACL gives besides the owner's full control (S3's definitions). */
const CANNED_GRANTS: Record<ObjectAcl, { group: string; permission: string }[]> = {
  private: [],
  'public-read': [{ group: 'AllUsers', permission: 'READ' }],
  'public-read-write': [{ group: 'AllUsers', permission: 'READ' }, { group: 'AllUsers', permission: 'WRITE' }],
  'authenticated-read': [{ group: 'AuthenticatedUsers', permission: 'READ' }],
  custom: [],
};

/** The S3 `AccessControlPolicy` document of an object with a canned ACL. */
export function aclXml(owner: string, acl: ObjectAcl): string {
  const grantee = (inner: string, type: string) => `<Grant><Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="${type}">${inner}</Grantee>`;
  const grants = [
    `${grantee(`<ID>${xml(owner)}</ID><DisplayName>${xml(owner)}</DisplayName>`, 'CanonicalUser')}<Permission>FULL_CONTROL</Permission></Grant>`,
    ...CANNED_GRANTS[acl].map((g) => `${grantee(`<URI>http://acs.amazonaws.com/groups/global/${g.group}</URI>`, 'Group')}<Permission>${g.permission}</Permission></Grant>`),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?><AccessControlPolicy xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Owner><ID>${xml(owner)}</ID><DisplayName>${xml(owner)}</DisplayName></Owner><AccessControlList>${grants.join('')}</AccessControlList></AccessControlPolicy>`;
}
