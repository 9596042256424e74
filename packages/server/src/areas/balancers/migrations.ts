// The balancers, their configs (one per port) and the configs' nodes. Deleting a balancer or a
// config deletes what hangs under it through the foreign keys, in the same statement.
import type { Kysely } from 'kysely';
import { valueIn, withIdColumn, withStateColumns } from '../../core/store/migration-kit.js';
import type { Migrations } from '../../core/store/migrations.js';

export const NODE_STATUSES = ['Unknown', 'UP', 'DOWN'] as const;

export const migrations: Migrations = {
  '202611231925_balancers_create_tables': {
    async up(db: Kysely<any>) {
      await withIdColumn(db, db.schema.createTable('balancers'))
        .addColumn('label', 'text', (c) => c.notNull().unique())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('client_conn_throttle', 'integer', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .execute();

      await withIdColumn(db, db.schema.createTable('balancer_configs'))
        .addColumn('balancer_id', 'integer', (c) => c.notNull().references('balancers.id').onDelete('cascade'))
        .addColumn('port', 'integer', (c) => c.notNull())
        .addColumn('protocol', 'text', (c) => c.notNull())
        .addColumn('algorithm', 'text', (c) => c.notNull())
        .addColumn('stickiness', 'text', (c) => c.notNull())
        .addColumn('check', 'text', (c) => c.notNull())
        .addColumn('check_interval', 'integer', (c) => c.notNull())
        .addColumn('check_timeout', 'integer', (c) => c.notNull())
        .addColumn('check_attempts', 'integer', (c) => c.notNull())
        .addColumn('check_path', 'text', (c) => c.notNull())
        .addColumn('check_body', 'text', (c) => c.notNull())
        .addColumn('check_passive', 'integer', (c) => c.notNull())
        .addColumn('proxy_protocol', 'text', (c) => c.notNull())
        .addColumn('cipher_suite', 'text', (c) => c.notNull())
        .addColumn('ssl_cert', 'text')
        .addColumn('ssl_key', 'text')
        .addColumn('ssl_commonname', 'text', (c) => c.notNull())
        .addColumn('ssl_fingerprint', 'text', (c) => c.notNull())
        // One config per port of a balancer: the rule lives here, so two requests cannot race it.
        .addUniqueConstraint('balancer_configs_port', ['balancer_id', 'port'])
        .execute();

      await withStateColumns(withIdColumn(db, db.schema.createTable('balancer_nodes')))
        .addColumn('config_id', 'integer', (c) => c.notNull().references('balancer_configs.id').onDelete('cascade'))
        .addColumn('balancer_id', 'integer', (c) => c.notNull().references('balancers.id').onDelete('cascade'))
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('weight', 'integer', (c) => c.notNull())
        .addCheckConstraint('balancer_nodes_status', valueIn('status', NODE_STATUSES))
        .execute();
      await db.schema.createIndex('balancer_nodes_config').on('balancer_nodes').column('config_id').execute();
      await db.schema.createIndex('balancer_nodes_balancer').on('balancer_nodes').column('balancer_id').execute();
    },
  },
};
