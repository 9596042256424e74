// The core's own tables: object permissions and tags (shared by every area whose objects carry tags).
import type { Kysely } from 'kysely';
import { keyedOnly, valueIn } from './store/migration-kit.js';
import type { Migrations } from './store/migrations.js';

export const coreMigrations: Migrations = {
  '202611231600_core_grants_and_tags': {
    async up(db: Kysely<any>) {
      await keyedOnly(db, db.schema.createTable('object_grants')
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('object_id', 'text', (c) => c.notNull())
        .addColumn('level', 'text', (c) => c.notNull().check(valueIn('level', ['read_only', 'read_write'])))
        .addPrimaryKeyConstraint('object_grants_pk', ['token_id', 'entity', 'object_id']))
        .execute();
      await db.schema.createTable('tags')
        .addColumn('label', 'text', (c) => c.primaryKey())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .execute();
      await keyedOnly(db, db.schema.createTable('taggings')
        .addColumn('label', 'text', (c) => c.notNull().references('tags.label').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('object_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('taggings_pk', ['label', 'kind', 'object_id']))
        .execute();
      await db.schema.createIndex('taggings_object').on('taggings').columns(['kind', 'object_id']).execute();
    },
  },
};
