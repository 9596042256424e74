// The domains (DNS zones) and their records. The zone file is kept as last rendered (JSON text),
// since a disabled domain keeps answering the zone it had before it was disabled.
import type { Kysely } from 'kysely';
import { sql, valueIn, withIdColumn } from '../../core/store/migration-kit.js';
import type { Migrations } from '../../core/store/migrations.js';

export const DOMAIN_TYPES = ['master', 'slave'] as const;
export const DOMAIN_STATUSES = ['active', 'disabled'] as const;
export const RECORD_TYPES = ['A', 'AAAA', 'NS', 'MX', 'CNAME', 'TXT', 'SRV', 'PTR', 'CAA'] as const;

export const migrations: Migrations = {
  '202611231935_domains_create_tables': {
    async up(db: Kysely<any>) {
      await withIdColumn(db, db.schema.createTable('domains'))
        // Unique across the platform; held lower-cased, as DNS names compare.
        .addColumn('domain', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('display_group', 'text', (c) => c.notNull())
        .addColumn('soa_email', 'text', (c) => c.notNull())
        .addColumn('master_ips', 'text', (c) => c.notNull())
        .addColumn('axfr_ips', 'text', (c) => c.notNull())
        .addColumn('ttl_sec', 'integer', (c) => c.notNull())
        .addColumn('refresh_sec', 'integer', (c) => c.notNull())
        .addColumn('retry_sec', 'integer', (c) => c.notNull())
        .addColumn('expire_sec', 'integer', (c) => c.notNull())
        .addColumn('zone_serial', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('zone_file', 'text')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .addCheckConstraint('domains_type', valueIn('type', DOMAIN_TYPES))
        .addCheckConstraint('domains_status', valueIn('status', DOMAIN_STATUSES))
        .execute();
      await withIdColumn(db, db.schema.createTable('domain_records'))
        .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull().check(sql`priority between 0 and 255`))
        .addColumn('weight', 'integer', (c) => c.notNull().check(sql`weight between 0 and 65535`))
        .addColumn('port', 'integer', (c) => c.notNull().check(sql`port between 0 and 65535`))
        .addColumn('service', 'text')
        .addColumn('protocol', 'text')
        .addColumn('ttl_sec', 'integer', (c) => c.notNull())
        .addColumn('tag', 'text')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .addCheckConstraint('domain_records_type', valueIn('type', RECORD_TYPES))
        .execute();
      await db.schema.createIndex('domain_records_domain').on('domain_records').columns(['domain_id', 'id']).execute();
    },
  },
};
