// The Support tables: tickets (their state on the clock: `new` → `open`, then `closed` by the
// user), their replies, and their attachments, whose bytes are kept in the store so that every
// server process on one PostgreSQL has them.
import type { Kysely } from 'kysely';
import { isPostgres } from '../../core/store/kind.js';
import { sql, valueIn, withIdColumn, withStateColumns } from '../../core/store/migration-kit.js';
import type { Migrations } from '../../core/store/migrations.js';

export const TICKET_STATUSES = ['new', 'open', 'closed'] as const;

/** The list's first sort key: 0 for an open ticket (`new`, `open`), 1 for a closed one. */
export const OPEN_FIRST = sql`(case when status = 'closed' then 1 else 0 end)`;

export const migrations: Migrations = {
  '202611231940_support_create_tables': {
    async up(db: Kysely<any>) {
      await withStateColumns(withIdColumn(db, db.schema.createTable('support_tickets')))
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('opened', 'bigint', (c) => c.notNull())
        .addColumn('closed', 'bigint')
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .addColumn('opened_by', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text')
        .addColumn('avatar_id', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'integer')
        .addColumn('entity_label', 'text')
        .addColumn('entity_type', 'text')
        .addColumn('entity_url', 'text')
        .addColumn('managed_issue', 'integer', (c) => c.notNull())
        .addColumn('vlan', 'text')
        .addColumn('region', 'text')
        .addCheckConstraint('support_tickets_status', valueIn('status', TICKET_STATUSES))
        .execute();
      // The list's order (open first, newest first), so that a page is read from the index.
      await db.schema.createIndex('support_tickets_open_first').on('support_tickets').expression(sql`${OPEN_FIRST}, id desc`).execute();

      await withIdColumn(db, db.schema.createTable('ticket_replies'))
        .addColumn('ticket_id', 'integer', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('from_provider', 'integer', (c) => c.notNull())
        .addColumn('avatar_id', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ticket_replies_ticket').on('ticket_replies').columns(['ticket_id', 'id']).execute();

      await withIdColumn(db, db.schema.createTable('ticket_attachments'))
        .addColumn('ticket_id', 'integer', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('data', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ticket_attachments_ticket').on('ticket_attachments').columns(['ticket_id', 'id']).execute();
    },
  },
};
