// The reads of a table whose objects carry `tags`, written once for every such area (Volumes,
// Compute instances, Domains, Balancers): rows always come with their tags (one `tags` column:
// `tagsColumn`, read with `tagLabels`), one row by id is a prepared query, and the kind's
// TaggableKind (which Tags uses to check and show objects) follows from the same table.
import type { SelectQueryBuilder } from 'kysely';
import type { HandlerContext } from './area.js';
import type { TaggableKind } from './services.js';
import type { Db, Trx } from './store/db.js';
import { prepared } from './store/prepared.js';
import { tagsColumn } from './tagging.js';

/** A row of a taggable table as read here: its columns and its tags (`tagLabels` reads them). */
export type WithTags<Row> = Row & { tags: string | null };

/** What showing rows as the API does may need besides the database. */
export type ShowDeps = Pick<HandlerContext, 'clock' | 'services'>;

export interface TaggableStoreOptions<Row extends { id: number }, Shown extends { id: number }> {
  table: string;
  /** `TaggedObject.type` and `taggings.kind`: `volume`, `compute`, `domain`, `balancer`. */
  kind: string;
  /** The `TagCreateRequest` field that lists ids of this kind: `volumes`, `computes`, … */
  field: string;
  /** The rows as the API shows them, in their order. */
  show(db: Db | Trx, rows: WithTags<Row>[], deps: ShowDeps): Promise<Shown[]> | Shown[];
}

export interface TaggableStore<Row extends { id: number }, Shown extends { id: number }> {
  /** The table's rows with their tags; `where` and `orderBy` name columns as `<table>.<column>`. */
  select(db: Db | Trx): SelectQueryBuilder<any, any, WithTags<Row>>;
  /** The list of the table in id order: one query object per database, which pagination compiles once. */
  list(db: Db): SelectQueryBuilder<any, any, WithTags<Row>>;
  find(db: Db | Trx, id: number): Promise<WithTags<Row> | undefined>;
  show(db: Db | Trx, rows: WithTags<Row>[], deps: ShowDeps): Promise<Shown[]>;
  /** The kind as Tags sees it (the object permissions' entity is the kind). */
  taggable: TaggableKind;
}

export function taggableStore<Row extends { id: number }, Shown extends { id: number }>(options: TaggableStoreOptions<Row, Shown>): TaggableStore<Row, Shown> {
  const { table, kind, field } = options;
  const idColumn = `${table}.id`;
  const select = (db: Db | Trx) => (db as Db).selectFrom(table as any).selectAll(table as any)
    .select(tagsColumn(db, kind, idColumn)) as unknown as SelectQueryBuilder<any, any, WithTags<Row>>;
  const byId = prepared((db, id: number) => select(db).where(idColumn, '=', id));
  const show = async (db: Db | Trx, rows: WithTags<Row>[], deps: ShowDeps) => options.show(db, rows, deps);
  const lists = new WeakMap<Db, SelectQueryBuilder<any, any, WithTags<Row>>>();
  return {
    select,
    list(db) {
      let list = lists.get(db);
      if (!list) lists.set(db, (list = select(db).orderBy(idColumn)));
      return list;
    },
    find: async (db, id) => (await byId(db, id))[0],
    show,
    taggable: {
      type: kind,
      field,
      entity: kind,
      async existing(db, ids) {
        const rows = ids.length ? await (db as Db).selectFrom(table as any).select('id').where('id', 'in', ids).execute() as { id: number }[] : [];
        return new Set(rows.map((r) => r.id));
      },
      async load(db, ids, deps) {
        const rows = ids.length ? await select(db).where(idColumn, 'in', ids).execute() : [];
        return new Map((await show(db, rows, deps)).map((shown) => [shown.id, shown]));
      },
    },
  };
}
