// Puts the areas together: their handlers by operationId, their migrations, their taggable kinds
// and the services they provide. Conflicts (two handlers for one operation, two areas for one
// taggable kind) stop start-up.
import type { Area, HandlerOptions } from './area.js';
import { filterMigrations } from './filtering/migrations.js';
import { coreMigrations } from './migrations.js';
import { noComputes, noImages, noManagedIssues, noVolumes } from './services.js';
import type { Services, TaggableKind } from './services.js';
import { collectMigrations } from './store/migrations.js';
import type { Migrations } from './store/migrations.js';

export interface Registry {
  areas: Area[];
  handlers: Map<string, HandlerOptions<any>>;
  migrations: Migrations;
  services: Services;
}

export function buildRegistry(areas: Area[]): Registry {
  const handlers = new Map<string, HandlerOptions<any>>();
  const taggables = new Map<string, TaggableKind>();
  const services: Services = { computes: noComputes, volumes: noVolumes, images: noImages, managed: noManagedIssues, taggables };
  for (const area of areas) {
    for (const [operationId, definition] of Object.entries(area.handlers)) {
      if (!definition) continue;
      if (handlers.has(operationId)) throw new Error(`two areas handle ${operationId}`);
      handlers.set(operationId, (typeof definition === 'function' ? { handle: definition } : definition) as HandlerOptions<any>);
    }
    for (const kind of area.taggables ?? []) {
      if (taggables.has(kind.type)) throw new Error(`two areas register the taggable kind ${kind.type}`);
      taggables.set(kind.type, kind);
    }
    Object.assign(services, typeof area.provides === 'function' ? area.provides(services) : area.provides ?? {});
  }
  const migrations = collectMigrations([
    { area: 'core', migrations: coreMigrations },
    ...areas.map((area) => ({ area: area.name, migrations: area.migrations ?? {} })),
    // Indexes for X-Filter on the areas' tables, after them (core/filtering/migrations.ts).
    { area: 'core', migrations: filterMigrations },
  ]);
  return { areas, handlers, migrations, services };
}
