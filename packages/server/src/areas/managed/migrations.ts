// The Managed tables: contacts, credentials (secrets only as salted hashes), the account's one
// SSH key, issues, monitored services (their state on the clock) with the credentials they may
// use, and the SSH settings support staff use per compute instance.
import type { Kysely } from 'kysely';
import { keyedOnly, sql, valueIn, withIdColumn, withStateColumns } from '../../core/store/migration-kit.js';
import type { Migrations } from '../../core/store/migrations.js';

export const SERVICE_STATUSES = ['disabled', 'pending', 'ok', 'problem'] as const;
export const SERVICE_TYPES = ['url', 'tcp'] as const;

export const migrations: Migrations = {
  '202611231935_managed_create_tables': {
    async up(db: Kysely<any>) {
      await withIdColumn(db, db.schema.createTable('managed_contacts'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('contact_group', 'text')
        .addColumn('phone_primary', 'text', (c) => c.notNull())
        .addColumn('phone_secondary', 'text')
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .execute();

      await withIdColumn(db, db.schema.createTable('managed_credentials'))
        .addColumn('label', 'text', (c) => c.notNull().unique())
        .addColumn('username_hash', 'text')
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('last_decrypted', 'bigint')
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .execute();

      // One row at most: the key is made on first read.
      await db.schema.createTable('managed_ssh_key')
        .addColumn('slot', 'integer', (c) => c.primaryKey().check(sql`slot = 1`))
        .addColumn('ssh_key', 'text', (c) => c.notNull())
        .execute();

      await withIdColumn(db, db.schema.createTable('managed_issues'))
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('ticket_id', 'integer', (c) => c.notNull())
        .addColumn('ticket_label', 'text', (c) => c.notNull())
        .addColumn('services', 'text', (c) => c.notNull())
        .execute();

      await withStateColumns(withIdColumn(db, db.schema.createTable('managed_services')))
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('body', 'text')
        .addColumn('consultation_group', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('notes', 'text')
        .addColumn('region', 'text')
        .addColumn('service_type', 'text', (c) => c.notNull())
        .addColumn('timeout', 'integer', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .addCheckConstraint('managed_services_status', valueIn('status', SERVICE_STATUSES))
        .addCheckConstraint('managed_services_type', valueIn('service_type', SERVICE_TYPES))
        .execute();

      await keyedOnly(db, db.schema.createTable('managed_service_credentials')
        .addColumn('service_id', 'integer', (c) => c.notNull())
        .addColumn('credential_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('managed_service_credentials_pk', ['service_id', 'credential_id']))
        .execute();
      await db.schema.createIndex('managed_service_credentials_credential').on('managed_service_credentials').column('credential_id').execute();

      // Only what a PUT changed; the rest comes from the instance and the defaults.
      await db.schema.createTable('managed_compute_settings')
        .addColumn('compute_id', 'integer', (c) => c.primaryKey())
        .addColumn('access', 'integer')
        .addColumn('ssh_user', 'text')
        .addColumn('ip', 'text')
        .addColumn('port', 'integer')
        .execute();
    },
  },
};
