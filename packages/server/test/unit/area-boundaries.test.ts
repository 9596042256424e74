// Areas meet only through `services` (CONTRIBUTING.md, "Adding an area"): no area's code names a
// table another area owns, or imports another area's modules. A server built with some areas
// only would otherwise fail on a missing table. Which area owns a table follows from the
// migrations: the area whose code creates it (`createTable('…')`); tables that src/core creates
// (tags, taggings, object grants) are everyone's.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src/', import.meta.url));
const areasDir = path.join(src, 'areas');

/** Every .ts file under a folder, as paths relative to src/. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(src, path.join(entry.parentPath, entry.name)));
}

/** The code without its comments (a comment may name any table). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** Tables a file creates. */
const createdTables = (code: string) => [...code.matchAll(/\bcreateTable\(\s*['"`](\w+)/g)].map((m) => m[1]!);

/**
 * Tables a file names: as the query builder's table argument (`selectFrom('volumes')`,
 * `innerJoin('volumes as v', …)`, `taggableStore({ table: 'volumes' })`) or in raw SQL after
 * FROM, JOIN, UPDATE, INTO or TABLE inside a sql`…` template.
 */
function namedTables(code: string): string[] {
  const builder = /\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|createTable|alterTable|dropTable|on|table)\(\s*['"`](\w+)/g;
  const option = /\btable:\s*['"`](\w+)/g;
  const raw = [...code.matchAll(/\bsql(?:<[^>`]*>)?`([^`]*)`/g)].flatMap((m) => [...m[1]!.matchAll(/\b(?:from|join|update|into|table)\s+"?(\w+)/gi)]);
  return [...code.matchAll(builder), ...code.matchAll(option), ...raw].map((m) => m[1]!);
}

/** Other areas' folders a file imports from (`../images/store.js` from areas/compute). */
const importedAreas = (code: string, area: string) =>
  [...code.matchAll(/\bfrom\s+['"]\.\.\/([\w-]+)\//g), ...code.matchAll(/\bimport\(\s*['"]\.\.\/([\w-]+)\//g)].map((m) => m[1]!).filter((folder) => folder !== area && folder !== '..');

interface AreaSource { area: string; file: string; code: string }

/** Each table's owning area, and the areas' files. */
function readAreas(): { owners: Map<string, string>; core: Set<string>; files: AreaSource[] } {
  const code = (file: string) => readFileSync(path.join(src, file), 'utf8');
  const core = new Set(tsFiles(path.join(src, 'core')).flatMap((file) => createdTables(withoutComments(code(file)))));
  const files = readdirSync(areasDir, { withFileTypes: true }).filter((entry) => entry.isDirectory())
    .flatMap((entry) => tsFiles(path.join(areasDir, entry.name)).map((file) => ({ area: entry.name, file, code: code(file) })));
  const owners = new Map<string, string>();
  for (const { area, code: text } of files) for (const table of createdTables(withoutComments(text))) owners.set(table, area);
  return { owners, core, files };
}

/** What each area file reaches of other areas: tables it names, areas it imports. */
function crossings({ owners, core, files }: ReturnType<typeof readAreas>): string[] {
  return files.map(({ area, file, code }) => ({ area, file, code: withoutComments(code) })).flatMap(({ area, file, code }) => [
    ...namedTables(code).filter((table) => !core.has(table) && owners.has(table) && owners.get(table) !== area)
      .map((table) => `${file} names the table ${table} of the ${owners.get(table)} area`),
    ...importedAreas(code, area).map((other) => `${file} imports from the ${other} area`),
  ]);
}

describe('areas meet only through services', () => {
  const read = readAreas();

  it('knows which area owns each table, from the migrations', () => {
    expect(read.owners.get('volumes')).toBe('volumes');
    expect(read.owners.get('images')).toBe('images');
    expect(read.owners.get('managed_issues')).toBe('managed');
    expect(read.owners.get('compute_instances')).toBe('compute');
    expect(read.core.has('taggings')).toBe(true);
    expect(new Set(read.owners.values()).size, 'areas with tables').toBeGreaterThanOrEqual(8);
  });

  it('no area names another area\'s table or imports its modules', () => {
    expect(crossings(read), 'ask the owning area through ctx.services (src/core/services.ts) instead').toEqual([]);
  });

  it('the check finds a planted crossing', () => {
    const planted: AreaSource[] = [
      { area: 'compute', file: 'areas/compute/a.ts', code: "await trx.updateTable('volumes').set({ config_id: null })" },
      { area: 'compute', file: 'areas/compute/b.ts', code: "db.selectFrom('compute_instances').innerJoin('images as i', 'i.id', 'x')" },
      { area: 'support', file: 'areas/support/c.ts', code: "await sql`INSERT INTO managed_issues (id) VALUES (1)`.execute(trx);\nimport { x } from '../managed/store.js';" },
      { area: 'compute', file: 'areas/compute/d.ts', code: "db.selectFrom('taggings'); // selectFrom('volumes') in a comment" },
    ];
    expect(crossings({ ...read, files: planted })).toEqual([
      'areas/compute/a.ts names the table volumes of the volumes area',
      'areas/compute/b.ts names the table images of the images area',
      'areas/support/c.ts names the table managed_issues of the managed area',
      'areas/support/c.ts imports from the managed area',
    ]);
  });
});
