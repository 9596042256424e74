// The Object Storage tables: buckets (label unique per cluster), their objects (the data itself,
// in the database), bucket certificates, access keys, the signing secret of pre-signed URLs, and
// the outbound transfer per month. Buckets belong to the account: the second migration drops the
// `owner` column (the token that created a bucket) the first one made.
import type { Kysely } from 'kysely';
import { isPostgres } from '../../core/store/kind.js';
import { toHex } from '../../platform/bytes.js';
import { platform } from '../../platform/node.js';
import { sql, valueIn, withIdColumn } from '../../core/store/migration-kit.js';
import type { Migrations } from '../../core/store/migrations.js';

export const OBJECT_ACLS = ['private', 'public-read', 'authenticated-read', 'public-read-write', 'custom'] as const;

export const migrations: Migrations = {
  '202611231915_object-storage_create_tables': {
    async up(db: Kysely<any>) {
      const postgres = isPostgres(db);
      await withIdColumn(db, db.schema.createTable('buckets'))
        .addColumn('cluster', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('acl', 'text', (c) => c.notNull())
        .addColumn('cors_enabled', 'integer', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('buckets_cluster_label', ['cluster', 'label'])
        .addCheckConstraint('buckets_acl', valueIn('acl', OBJECT_ACLS))
        .execute();
      await db.schema.createIndex('buckets_owner').on('buckets').columns(['owner', 'id']).execute();
      // Names sort by their bytes (code points) on both engines: `marker` and `prefix` are ranges.
      // No ON DELETE CASCADE: a bucket with objects cannot be deleted, and the key says so even
      // when an object arrives while the bucket is being deleted.
      await db.schema.createTable('bucket_objects')
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id'))
        .addColumn('name', postgres ? sql`text collate "C"` : 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('etag', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('acl', 'text', (c) => c.notNull())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('last_modified', 'bigint', (c) => c.notNull())
        .addColumn('data', postgres ? 'bytea' : 'blob', (c) => c.notNull())
        .addPrimaryKeyConstraint('bucket_objects_pk', ['bucket_id', 'name'])
        .addCheckConstraint('bucket_objects_acl', valueIn('acl', OBJECT_ACLS))
        .execute();
      await db.schema.createTable('bucket_certificates')
        .addColumn('bucket_id', 'integer', (c) => c.primaryKey().references('buckets.id').onDelete('cascade'))
        .addColumn('certificate', 'text', (c) => c.notNull())
        .addColumn('private_key', 'text', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .execute();
      await withIdColumn(db, db.schema.createTable('access_keys'))
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('access_key', 'text', (c) => c.notNull().unique())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('bucket_access', 'text')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createTable('object_storage_transfer')
        .addColumn('month', 'text', (c) => c.primaryKey())
        .addColumn('used', 'bigint', (c) => c.notNull())
        .execute();
      // The key pre-signed URLs are signed with: in the database, so every process on one
      // PostgreSQL accepts the URLs any of them made, and a restart keeps them valid.
      await db.schema.createTable('object_storage_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.insertInto('object_storage_secrets').values({ name: 'url_signing', value: toHex(platform.randomBytes(32)) }).execute();
    },
  },
  '202611270700_object-storage_buckets_of_the_account': {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('buckets_owner').execute();
      await db.schema.alterTable('buckets').dropColumn('owner').execute();
    },
  },
};
