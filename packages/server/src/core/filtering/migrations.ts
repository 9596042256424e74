// Indexes on the columns X-Filter compares and orders by (core/filtering/sql.ts names them), so
// a filtered or ordered list does not sort the table. Columns already unique (a balancer's label,
// a domain's name) have an index. test/filtering/indexes.test.ts keeps this list in step with the
// bundle's marks.
import type { Kysely } from 'kysely';
import type { Migrations } from '../store/migrations.js';

export const FILTER_INDEXES: readonly (readonly [table: string, column: string])[] = [
  ['volumes', 'label'], ['volumes', 'created'], ['volumes', 'updated'],
  ['compute_instances', 'label'], ['compute_instances', 'group_name'], ['compute_instances', 'created'], ['compute_instances', 'updated'],
  ['compute_configs', 'label'], ['compute_configs', 'created'], ['compute_configs', 'updated'],
  ['domains', 'display_group'],
  ['domain_records', 'tag'], ['domain_records', 'created'], ['domain_records', 'updated'],
  ['managed_contacts', 'contact_group'], ['managed_contacts', 'updated'],
  ['support_tickets', 'opened'], ['support_tickets', 'closed'], ['support_tickets', 'updated'],
  ['balancers', 'created'], ['balancers', 'updated'],
];

export const filterMigrations: Migrations = {
  '202611271200_core_filter_indexes': {
    async up(db: Kysely<any>) {
      // A server built with fewer areas has fewer tables: index those it has.
      const tables = new Set((await db.introspection.getTables()).map((t) => t.name));
      for (const [table, column] of FILTER_INDEXES) {
        if (!tables.has(table)) continue;
        await db.schema.createIndex(`${table}_filter_${column}`).ifNotExists().on(table).column(column).execute();
      }
    },
  },
};
