// Migration names: `<YYYYMMDDHHMM>_<area>_<what>`, the area in the name being the area's own,
// unique across areas; every area's migrations follow the rule.
import { describe, expect, it } from 'vitest';
import * as areas from '../../src/areas/index.js';
import { coreMigrations } from '../../src/core/migrations.js';
import { collectMigrations, MIGRATION_NAME } from '../../src/core/store/migrations.js';

const noop = { up: async () => {} };

describe('migrations', () => {
  it('every migration of the core and the areas is named <YYYYMMDDHHMM>_<area>_<what> after its own area', () => {
    const all = collectMigrations([{ area: 'core', migrations: coreMigrations }, ...Object.values(areas).map((a) => ({ area: a.name, migrations: a.migrations ?? {} }))]);
    expect(Object.keys(all).length).toBeGreaterThan(2);
    for (const name of Object.keys(all)) expect(name).toMatch(MIGRATION_NAME);
  });

  it('refuses a name without the pattern, with another area\'s name, or used twice', () => {
    expect(() => collectMigrations([{ area: 'domains', migrations: { create_domains: noop } }])).toThrow(/must be named <YYYYMMDDHHMM>_domains_<what>/);
    expect(() => collectMigrations([{ area: 'domains', migrations: { '202611231700_volumes_x': noop } }])).toThrow(/is in area domains but names area "volumes"/);
    expect(() => collectMigrations([
      { area: 'domains', migrations: { '202611231700_domains_x': noop } },
      { area: 'domains', migrations: { '202611231700_domains_x': noop } },
    ])).toThrow(/defined twice/);
  });
});
