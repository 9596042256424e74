// The Compute tables: instances (state on the clock), their disks and config profiles, backups
// (state on the clock), clone jobs (counted for the limit of concurrent clones), boot jobs
// (counted by the watchdog) and one row per region to lock while its VLANs are counted.
import type { Kysely } from 'kysely';
import { sql, valueIn, withIdColumn, withStateColumns } from '../../core/store/migration-kit.js';
import type { Migrations } from '../../core/store/migrations.js';

export const INSTANCE_STATUSES = ['running', 'offline', 'booting', 'rebooting', 'shutting_down', 'provisioning', 'deleting', 'migrating', 'rebuilding', 'cloning', 'restoring', 'stopped'] as const;
export const BACKUP_STATUSES = ['paused', 'pending', 'running', 'needsPostProcessing', 'successful', 'failed', 'userAborted'] as const;

const timestamps = <T extends { addColumn: any }>(table: T): T => table
  .addColumn('created', 'bigint', (c: any) => c.notNull())
  .addColumn('updated', 'bigint', (c: any) => c.notNull());

export const migrations: Migrations = {
  '202611231915_compute_create_tables': {
    async up(db: Kysely<any>) {
      await timestamps(withStateColumns(withIdColumn(db, db.schema.createTable('compute_instances')))
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('image', 'text')
        .addColumn('group_name', 'text', (c) => c.notNull())
        .addColumn('private_ip', 'integer', (c) => c.notNull())
        .addColumn('backups_enabled', 'integer', (c) => c.notNull())
        .addColumn('backup_day', 'text', (c) => c.notNull())
        .addColumn('backup_window', 'text', (c) => c.notNull())
        .addColumn('watchdog_enabled', 'integer', (c) => c.notNull())
        .addColumn('alerts', 'text', (c) => c.notNull())
        .addColumn('last_config_id', 'integer')
        .addCheckConstraint('compute_instances_status', valueIn('status', INSTANCE_STATUSES)))
        .execute();

      await timestamps(withIdColumn(db, db.schema.createTable('compute_disks'))
        .addColumn('compute_id', 'integer', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull().check(sql`size >= 0`))
        .addColumn('filesystem', 'text', (c) => c.notNull()))
        .execute();
      await db.schema.createIndex('compute_disks_instance').on('compute_disks').column('compute_id').execute();

      await timestamps(withIdColumn(db, db.schema.createTable('compute_configs'))
        .addColumn('compute_id', 'integer', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('devices', 'text', (c) => c.notNull())
        .addColumn('comments', 'text')
        .addColumn('helpers', 'text', (c) => c.notNull())
        .addColumn('interfaces', 'text', (c) => c.notNull())
        .addColumn('kernel', 'text', (c) => c.notNull())
        .addColumn('memory_limit', 'integer', (c) => c.notNull())
        .addColumn('root_device', 'text', (c) => c.notNull())
        .addColumn('run_level', 'text', (c) => c.notNull())
        .addColumn('virt_mode', 'text', (c) => c.notNull()))
        .execute();
      await db.schema.createIndex('compute_configs_instance').on('compute_configs').column('compute_id').execute();

      await timestamps(withStateColumns(withIdColumn(db, db.schema.createTable('compute_backups')))
        .addColumn('compute_id', 'integer', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('configs', 'text', (c) => c.notNull())
        .addColumn('disks', 'text', (c) => c.notNull())
        .addCheckConstraint('compute_backups_status', valueIn('status', BACKUP_STATUSES))
        .addCheckConstraint('compute_backups_type', valueIn('type', ['auto', 'snapshot'])))
        .execute();
      await db.schema.createIndex('compute_backups_instance').on('compute_backups').column('compute_id').execute();

      await withIdColumn(db, db.schema.createTable('compute_clone_jobs'))
        .addColumn('source_id', 'integer', (c) => c.notNull())
        .addColumn('target_id', 'integer', (c) => c.notNull())
        .addColumn('finishes_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('compute_clone_jobs_source').on('compute_clone_jobs').columns(['source_id', 'finishes_at']).execute();
    },
  },
  '202611270700_compute_boot_jobs_and_region_locks': {
    async up(db: Kysely<any>) {
      await withIdColumn(db, db.schema.createTable('compute_boot_jobs'))
        .addColumn('compute_id', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('ends_at', 'bigint', (c) => c.notNull())
        .addColumn('by_watchdog', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('compute_boot_jobs_instance').on('compute_boot_jobs').columns(['compute_id', 'started_at']).execute();
      await db.schema.createTable('compute_region_locks').addColumn('region', 'text', (c) => c.primaryKey()).execute();
    },
  },
};
