// The volumes table. Its state advances on the clock (core/clock.ts).
import type { Kysely } from 'kysely';
import { sql, valueIn, withIdColumn, withStateColumns } from '../../core/store/migration-kit.js';
import type { Migrations } from '../../core/store/migrations.js';

export const VOLUME_STATUSES = ['creating', 'active', 'resizing', 'contact_support'] as const;

export const migrations: Migrations = {
  '202611231610_volumes_create_table': {
    async up(db: Kysely<any>) {
      await withStateColumns(withIdColumn(db, db.schema.createTable('volumes')))
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull().check(sql`size > 0`))
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('compute_id', 'integer')
        .addColumn('config_id', 'integer')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .addCheckConstraint('volumes_status', valueIn('status', VOLUME_STATUSES))
        .execute();
      await db.schema.createIndex('volumes_compute').on('volumes').column('compute_id').execute();
    },
  },
  // 0: attached with `persist_across_boots` false, in no profile, until the instance stops running.
  '202611270700_volumes_persistent': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('volumes').addColumn('persistent', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    },
  },
};
