// Every column that X-Filter compares or orders by has an index (or is unique, or the id): the
// bundle's marks, through core/filtering/sql.ts's table of columns, against the index migration.
import { describe, expect, it } from 'vitest';
import { filterSpecs } from '@cloudapi/spec/filters';
import { loadBundle } from '@cloudapi/spec/bundle';
import { LIST_COLUMNS } from '../../src/core/filtering/sql.js';
import { FILTER_INDEXES } from '../../src/core/filtering/migrations.js';

// Columns with an index of their own already: unique constraints and primary keys.
const ALREADY_INDEXED = new Set(['balancers.label', 'domains.domain']);
// Lists filtered in memory (public images come from the catalogue).
const IN_MEMORY = new Set(['listImages']);

describe('filter indexes', () => {
  it('every list with filterable fields has columns, and each column it filters or orders by has an index', () => {
    const specs = filterSpecs(loadBundle());
    expect(specs.size).toBeGreaterThan(5);
    const indexed = new Set(FILTER_INDEXES.map(([table, column]) => `${table}.${column}`));
    const missing: string[] = [];
    for (const [operationId, spec] of specs) {
      if (IN_MEMORY.has(operationId)) continue;
      const list = LIST_COLUMNS[operationId];
      expect(list, `${operationId} takes X-Filter: name its table in core/filtering/sql.ts`).toBeDefined();
      for (const field of new Set([...Object.keys(spec.fields), ...spec.orderable])) {
        if (field === 'id' || spec.fields[field]?.kind === 'tags') continue;
        const column = `${list!.table}.${list!.columns?.[field] ?? field}`;
        if (!indexed.has(column) && !ALREADY_INDEXED.has(column)) missing.push(`${operationId}: ${column}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
