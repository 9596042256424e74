// Compiles a parsed X-Filter into the WHERE and ORDER BY of a list's Kysely query. Column names
// come only from the bundle's marks (through the table below) and values only as parameters: no
// text of the header is ever joined into SQL. Both engines answer the same rows in the same order.
import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, SelectQueryBuilder, SqlBool } from 'kysely';
import type { Condition, FieldSpec, Where } from '@cloudapi/spec/filters';
import { timestampMs } from '@cloudapi/spec/filters';
import type { ListFilter } from './header.js';

/** Where a list's filterable fields live: its table, columns named otherwise, the kind of its tags. */
export interface ListColumns {
  table: string;
  columns?: Record<string, string>;
  /** The `taggings.kind` of the list's objects, for a `tags` field. */
  tagKind?: string;
}

/** Every list operation with filterable fields that reads SQL (listImages filters in memory). */
export const LIST_COLUMNS: Record<string, ListColumns> = {
  listVolumes: { table: 'volumes', tagKind: 'volume' },
  listComputeVolumes: { table: 'volumes', tagKind: 'volume' },
  listComputeInstances: { table: 'compute_instances', tagKind: 'compute', columns: { group: 'group_name' } },
  listComputeConfigs: { table: 'compute_configs' },
  listDomains: { table: 'domains', tagKind: 'domain', columns: { group: 'display_group' } },
  listDomainRecords: { table: 'domain_records' },
  listManagedContacts: { table: 'managed_contacts', columns: { group: 'contact_group' } },
  listSupportTickets: { table: 'support_tickets' },
  listBalancers: { table: 'balancers', tagKind: 'balancer' },
};

type Eb = ExpressionBuilder<any, any>;
const SECOND = 1000;

function columnsOf(filter: ListFilter): ListColumns {
  const columns = LIST_COLUMNS[filter.operationId];
  if (!columns) throw new Error(`${filter.operationId} takes X-Filter but core/filtering/sql.ts has no columns for it`);
  return columns;
}

const columnRef = (list: ListColumns, field: string) => sql.ref(`${list.table}.${list.columns?.[field] ?? field}`);

/** A substring test, case-sensitive, with no wildcard characters to escape. */
function contains(filter: ListFilter, column: Expression<unknown>, value: string) {
  return filter.engine === 'postgres' ? sql<SqlBool>`strpos(${column}, ${value}) > 0` : sql<SqlBool>`instr(${column}, ${value}) > 0`;
}

function tagCondition(eb: Eb, filter: ListFilter, list: ListColumns, cond: Condition) {
  if (!list.tagKind) throw new Error(`${filter.operationId} filters tags but core/filtering/sql.ts names no tag kind for it`);
  const value = String(cond.value);
  const tagged = eb.selectFrom('taggings as filter_tags')
    .select(sql.lit(1).as('one'))
    .where('filter_tags.kind', '=', list.tagKind)
    .where('filter_tags.object_id', '=', sql.ref(`${list.table}.id`) as any)
    .where(cond.op === '+contains' ? contains(filter, sql.ref('filter_tags.label'), value) : eb('filter_tags.label', '=', value));
  return cond.op === '+neq' ? eb.not(eb.exists(tagged)) : eb.exists(tagged);
}

/** A timestamp field holds epoch ms; the API shows whole seconds, so a moment is a 1 s range. */
function timestampCondition(eb: Eb, column: Expression<any>, cond: Condition, kind: FieldSpec) {
  if (cond.value === null) return cond.op === 'eq' ? eb(column, 'is', null) : eb(column, 'is not', null);
  const start = timestampMs(String(cond.value));
  const end = start + SECOND;
  switch (cond.op) {
    case 'eq': return eb.and([eb(column, '>=', start), eb(column, '<', end)]);
    case '+neq': {
      const outside = eb.or([eb(column, '<', start), eb(column, '>=', end)]);
      return kind.nullable ? eb.or([eb(column, 'is', null), outside]) : outside;
    }
    case '+gt': return eb(column, '>=', end);
    case '+gte': return eb(column, '>=', start);
    case '+lt': return eb(column, '<', start);
    default: return eb(column, '<', end);
  }
}

function condition(eb: Eb, filter: ListFilter, list: ListColumns, cond: Condition) {
  const kind = filter.spec.fields[cond.field]!;
  if (kind.kind === 'tags') return tagCondition(eb, filter, list, cond);
  const column = columnRef(list, cond.field);
  if (kind.kind === 'timestamp') return timestampCondition(eb, column, cond, kind);
  const value = kind.kind === 'boolean' && cond.value !== null ? (cond.value ? 1 : 0) : cond.value;
  switch (cond.op) {
    case 'eq': return value === null ? eb(column, 'is', null) : eb(column, '=', value);
    case '+neq':
      if (value === null) return eb(column, 'is not', null);
      return kind.nullable ? eb.or([eb(column, 'is', null), eb(column, '<>', value)]) : eb(column, '<>', value);
    case '+contains': return contains(filter, column, String(value));
    case '+gt': return eb(column, '>', value);
    case '+gte': return eb(column, '>=', value);
    case '+lt': return eb(column, '<', value);
    default: return eb(column, '<=', value);
  }
}

function compile(eb: Eb, filter: ListFilter, list: ListColumns, where: Where): Expression<SqlBool> {
  if ('and' in where) return eb.and(where.and.map((w) => compile(eb, filter, list, w)));
  if ('or' in where) return eb.or(where.or.map((w) => compile(eb, filter, list, w)));
  return condition(eb, filter, list, where) as Expression<SqlBool>;
}

/** The list's query with the filter's WHERE, and its ORDER BY (then the id) when it orders. */
export function applyFilter<Q extends SelectQueryBuilder<any, any, any>>(query: Q, filter: ListFilter): Q {
  const list = columnsOf(filter);
  let out: SelectQueryBuilder<any, any, any> = query;
  const { where, orderBy, order } = filter.parsed;
  if (where) out = out.where((eb) => compile(eb as Eb, filter, list, where));
  if (orderBy) {
    const kind = filter.spec.orderKinds[orderBy];
    const column = columnRef(list, orderBy);
    const direction = order === 'desc' ? 'desc' : 'asc';
    out = out.clearOrderBy();
    // Nulls last on both engines (their defaults differ).
    if (kind?.nullable) out = out.orderBy(sql`case when ${column} is null then 1 else 0 end`);
    // Text in code-point order on both engines: PostgreSQL's default collation is the locale's.
    const sortable = kind?.kind === 'text' && filter.engine === 'postgres' ? sql`${column} collate "C"` : column;
    out = out.orderBy(sortable as any, direction).orderBy(sql.ref(`${list.table}.id`), direction);
  }
  return out as Q;
}
