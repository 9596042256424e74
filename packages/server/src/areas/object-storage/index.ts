// Object Storage: clusters (from the catalogue), the account's buckets per cluster with their access settings,
// objects written and read through the pre-signed URLs this server issues (presigned.ts) and
// listed S3-style (listing.ts), object ACLs, bucket TLS certificates, access keys, the outbound
// transfer, and cancellation, which removes every bucket and object.
import { cachedPages, defineArea, defineHandlers } from '../../core/area.js';
import type { HandlerContext } from '../../core/area.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { Db, Trx } from '../../core/store/db.js';
import { paginate, paginateList } from '../../core/store/pagination.js';
import { isForeignKeyViolation } from '../../core/store/constraints.js';
import { listObjects } from './listing.js';
import { migrations } from './migrations.js';
import { monthOf, presignedPath } from './signing.js';
import type { UrlMethod } from './signing.js';
import { toHex } from '../../platform/bytes.js';
import { platform } from '../../platform/node.js';
import { aclXml, BUCKET_LABEL, bucketOrNotFound, toAccessKey, toBucket, toBuckets } from './store.js';
import type { BucketAccess, BucketRow } from './store.js';

const DEFAULT_EXPIRES_IN = 3600;

function bucketOf(ctx: HandlerContext, params: { clusterId: string; bucket: string }): Promise<BucketRow> {
  return bucketOrNotFound(ctx.db, ctx.catalogue, params.clusterId, params.bucket);
}

function requireCluster(ctx: Pick<HandlerContext, 'catalogue'>, id: string) {
  const cluster = ctx.catalogue.cluster(id);
  if (!cluster) throw notFound(`Cluster ${id} does not exist`);
  return cluster;
}

/** Random letters and digits (access key ids are upper case, as S3's are). */
const randomKey = (length: number, alphabet: string) => [...platform.randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('');
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const MIXED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

async function changeAccess(ctx: HandlerContext<'updateBucketAccess'> | HandlerContext<'modifyBucketAccess'>) {
  const { acl, cors_enabled: cors } = ctx.body ?? {};
  const bucket = await bucketOf(ctx as HandlerContext, ctx.params);
  if (acl === undefined && cors === undefined) return {};
  await ctx.write((trx) => trx.updateTable('buckets')
    .set({ ...(acl !== undefined ? { acl } : {}), ...(cors !== undefined ? { cors_enabled: cors ? 1 : 0 } : {}) })
    .where('id', '=', bucket.id).execute());
  return {};
}

async function objectOrNotFound(ctx: HandlerContext, bucket: BucketRow, name: string) {
  const row = await ctx.db.selectFrom('bucket_objects').select(['acl', 'owner']).where('bucket_id', '=', bucket.id).where('name', '=', name).executeTakeFirst();
  if (!row) throw notFound(`Object ${name} does not exist in bucket ${bucket.label}`);
  return row;
}

export default defineArea({
  name: 'object-storage',
  tags: ['Object Storage'],
  migrations,
  handlers: defineHandlers({
    listObjectStorageClusters: async (ctx) => paginateList(ctx.catalogue.clusters, ctx.query),

    getObjectStorageCluster: async (ctx) => requireCluster(ctx, ctx.params.clusterId),

    listBuckets: cachedPages(async (ctx) => paginate(ctx.db, ctx.db.selectFrom('buckets').selectAll().orderBy('id'), ctx.query, (rows) => toBuckets(ctx.db, ctx.catalogue, rows))),

    listClusterBuckets: cachedPages(async (ctx) => {
      requireCluster(ctx, ctx.params.clusterId);
      return paginate(ctx.db, ctx.db.selectFrom('buckets').selectAll().where('cluster', '=', ctx.params.clusterId).orderBy('id'), ctx.query, (rows) => toBuckets(ctx.db, ctx.catalogue, rows));
    }),

    // Buckets belong to the account. A label another account holds (the sandbox world's) is a 400
    // naming `label`. The label is unique per cluster (a constraint): of two creates of one label,
    // one inserts; the other, and any later create, finds the account's bucket and answers it (200).
    createBucket: async (ctx) => {
      const { label, cluster: clusterId, acl = 'private', cors_enabled: cors = false } = ctx.body;
      const cluster = ctx.catalogue.cluster(clusterId);
      if (!cluster) throw badRequest(`Cluster ${clusterId} does not exist`, 'cluster');
      const sameLabel = (db: Db | Trx) => db.selectFrom('buckets').selectAll().where('cluster', '=', clusterId).where('label', '=', label);
      if (cluster.status !== 'available') {
        // An unavailable cluster takes no new bucket; the account's existing one is still answered.
        const row = await sameLabel(ctx.db).executeTakeFirst();
        if (row) return toBucket(ctx.db, ctx.catalogue, row);
        throw badRequest(`Cluster ${clusterId} is ${cluster.status}: it takes no new buckets`, 'cluster');
      }
      if (!BUCKET_LABEL.test(label)) throw badRequest('A bucket label is 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit (it is part of the bucket\'s hostname)', 'label');
      if (ctx.sandbox.heldByOtherAccount(clusterId, label)) throw badRequest(`The bucket label ${label} is already used in cluster ${clusterId} by another owner`, 'label');
      const row = await ctx.write(async (trx) => {
        await trx.insertInto('buckets').values({ cluster: clusterId, label, acl, cors_enabled: cors ? 1 : 0, created: ctx.clock.now() })
          .onConflict((oc) => oc.columns(['cluster', 'label']).doNothing()).execute();
        return sameLabel(trx).executeTakeFirstOrThrow();
      });
      return toBucket(ctx.db, ctx.catalogue, row);
    },

    getBucket: async (ctx) => toBucket(ctx.db, ctx.catalogue, await bucketOf(ctx, ctx.params)),

    // Only an empty bucket: the objects' foreign key refuses the delete otherwise, also when an
    // object is written while the bucket is being deleted.
    deleteBucket: async (ctx) => {
      const bucket = await bucketOf(ctx, ctx.params);
      const refuse = () => badRequest(`Bucket ${bucket.label} is not empty: delete its objects first`);
      try {
        await ctx.write(async (trx) => {
          const hasObject = await trx.selectFrom('bucket_objects').select('name').where('bucket_id', '=', bucket.id).limit(1).executeTakeFirst();
          if (hasObject) throw refuse();
          await trx.deleteFrom('bucket_certificates').where('bucket_id', '=', bucket.id).execute();
          await trx.deleteFrom('buckets').where('id', '=', bucket.id).execute();
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw refuse();
        throw error;
      }
      return {};
    },

    updateBucketAccess: async (ctx) => changeAccess(ctx),
    modifyBucketAccess: async (ctx) => changeAccess(ctx),

    getObjectAcl: async (ctx) => {
      const bucket = await bucketOf(ctx, ctx.params);
      const object = await objectOrNotFound(ctx, bucket, ctx.query.name);
      return { acl: object.acl, acl_xml: aclXml(`user-${object.owner}`, object.acl) };
    },

    updateObjectAcl: async (ctx) => {
      const { acl, name } = ctx.body;
      const bucket = await bucketOf(ctx, ctx.params);
      await ctx.write(async (trx) => {
        const result = await trx.updateTable('bucket_objects').set({ acl }).where('bucket_id', '=', bucket.id).where('name', '=', name).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw notFound(`Object ${name} does not exist in bucket ${bucket.label}`);
      });
      return {};
    },

    listBucketObjects: async (ctx) => {
      const bucket = await bucketOf(ctx, ctx.params);
      const { marker, prefix, delimiter, page_size: size = 100 } = ctx.query;
      return listObjects(ctx.db, { bucketId: bucket.id, marker, prefix, delimiter, size });
    },

    // The object need not exist (a PUT URL creates it). The URL is on this server (presigned.ts).
    createObjectUrl: async (ctx) => {
      const { name, method, content_type: contentType, expires_in: expiresIn = DEFAULT_EXPIRES_IN } = ctx.body;
      // A URL path cannot hold the segments `.` and `..`: clients resolve them away.
      if (name === '.' || name === '..') throw badRequest(`An object named ${name} cannot be addressed by a URL`, 'name');
      const bucket = await bucketOf(ctx, ctx.params);
      const signed = method === 'GET' || method === 'DELETE' ? undefined : contentType;
      const path = await presignedPath(ctx.db, ctx.clock, { method: method as UrlMethod, cluster: bucket.cluster, bucket: bucket.label, name, contentType: signed, expiresIn, user: ctx.auth!.tokenId });
      return { url: ctx.absoluteUrl(path) };
    },

    getBucketCertificate: async (ctx) => {
      const bucket = await bucketOf(ctx, ctx.params);
      const row = await ctx.db.selectFrom('bucket_certificates').select('bucket_id').where('bucket_id', '=', bucket.id).executeTakeFirst();
      return { ssl: row !== undefined };
    },

    // One certificate per bucket (its primary key): replacing one is delete, then upload.
    uploadBucketCertificate: async (ctx) => {
      const { certificate, private_key: privateKey } = ctx.body;
      const bucket = await bucketOf(ctx, ctx.params);
      await ctx.write(async (trx) => {
        const inserted = await trx.insertInto('bucket_certificates').values({ bucket_id: bucket.id, certificate, private_key: privateKey, created: ctx.clock.now() })
          .onConflict((oc) => oc.column('bucket_id').doNothing()).returning('bucket_id').executeTakeFirst();
        if (!inserted) throw badRequest(`Bucket ${bucket.label} already has a certificate: delete it before uploading another`, 'certificate');
      });
      return { ssl: true };
    },

    deleteBucketCertificate: async (ctx) => {
      const bucket = await bucketOf(ctx, ctx.params);
      await ctx.write(async (trx) => {
        const result = await trx.deleteFrom('bucket_certificates').where('bucket_id', '=', bucket.id).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) throw notFound(`Bucket ${bucket.label} has no certificate`);
      });
      return {};
    },

    // Every bucket and object of the account, irretrievably. Access keys stay:
    // the requirements name buckets and their contents.
    cancelObjectStorage: async (ctx) => {
      await ctx.write(async (trx) => {
        await trx.deleteFrom('bucket_objects').execute();
        await trx.deleteFrom('bucket_certificates').execute();
        await trx.deleteFrom('buckets').execute();
      });
      return {};
    },

    listAccessKeys: cachedPages(async (ctx) => paginate(ctx.db, ctx.db.selectFrom('access_keys').selectAll().orderBy('id'), ctx.query, (rows) => rows.map(toAccessKey))),

    getAccessKey: async (ctx) => {
      const row = await ctx.db.selectFrom('access_keys').selectAll().where('id', '=', ctx.params.keyId).executeTakeFirst();
      if (!row) throw notFound(`Access key ${ctx.params.keyId} does not exist`);
      return toAccessKey(row);
    },

    // Without `bucket_access` an unlimited key; with it (even empty) a key limited to the listed
    // buckets, each of which must be one of the account's, listed once. The secret key is in this
    // answer only; the store keeps its hash.
    createAccessKey: async (ctx) => {
      const { label = '', bucket_access: access } = ctx.body;
      const entries: BucketAccess[] | null = access === undefined ? null : access.map((e) => ({ bucket_name: e.bucket_name, cluster: e.cluster, permissions: e.permissions }));
      if (entries) {
        const seen = new Set<string>();
        for (const [i, entry] of entries.entries()) {
          if (!ctx.catalogue.cluster(entry.cluster)) throw badRequest(`Cluster ${entry.cluster} does not exist`, `bucket_access.${i}.cluster`);
          const key = JSON.stringify([entry.cluster, entry.bucket_name]);
          if (seen.has(key)) throw badRequest(`Bucket ${entry.bucket_name} in ${entry.cluster} is listed twice`, `bucket_access.${i}.bucket_name`);
          seen.add(key);
          const bucket = await ctx.db.selectFrom('buckets').select('id').where('cluster', '=', entry.cluster).where('label', '=', entry.bucket_name).executeTakeFirst();
          if (!bucket) throw badRequest(`Bucket ${entry.bucket_name} does not exist in cluster ${entry.cluster}`, `bucket_access.${i}.bucket_name`);
        }
      }
      const secret = randomKey(40, MIXED);
      const row = await ctx.write((trx) => trx.insertInto('access_keys').values({
        label, access_key: randomKey(20, UPPER), secret_hash: toHex(platform.sha256(secret)),
        bucket_access: entries === null ? null : JSON.stringify(entries), created: ctx.clock.now(),
      }).returningAll().executeTakeFirstOrThrow());
      return { ...toAccessKey(row), secret_key: secret };
    },

    updateAccessKey: async (ctx) => {
      const { keyId } = ctx.params;
      const row = await ctx.write(async (trx) => {
        if (ctx.body?.label !== undefined) await trx.updateTable('access_keys').set({ label: ctx.body.label }).where('id', '=', keyId).execute();
        return trx.selectFrom('access_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
      });
      if (!row) throw notFound(`Access key ${keyId} does not exist`);
      return toAccessKey(row);
    },

    // Revokes the pair: it is gone, and so is its secret's hash.
    deleteAccessKey: async (ctx) => {
      const { keyId } = ctx.params;
      const result = await ctx.write((trx) => trx.deleteFrom('access_keys').where('id', '=', keyId).executeTakeFirst());
      if (Number(result.numDeletedRows) === 0) throw notFound(`Access key ${keyId} does not exist`);
      return {};
    },

    getObjectStorageTransfer: async (ctx) => {
      const row = await ctx.db.selectFrom('object_storage_transfer').select('used').where('month', '=', monthOf(ctx.clock.now())).executeTakeFirst();
      return { used: Number(row?.used ?? 0) };
    },
  }),
});
