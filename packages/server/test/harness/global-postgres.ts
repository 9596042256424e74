// Vitest global set-up of the `postgres` project: one private PostgreSQL server for the run (see
// postgres.ts), stopped at the end. It never throws: when PostgreSQL cannot be had, every test
// of the project fails with the message saying how to get it (test/harness/harness.ts).
import type { TestProject } from 'vitest/node';
import { ensurePostgres, startPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: { url?: string; error?: string };
  }
}

export default async function setup(project: TestProject) {
  const log = (line: string) => console.log(`[server tests] ${line}`);
  const found = ensurePostgres({ log });
  if ('error' in found) {
    project.provide('postgres', { error: found.error });
    return undefined;
  }
  try {
    // Without autovacuum: its ANALYZE of a database's tables (some 60 in a run, as the tests fill
    // new databases) is a transaction that moves the whole server's snapshot, which drops every
    // server's cached list pages (the page cache's data version on PostgreSQL): a page-cache test
    // reading a list twice saw a miss when one ran in between. A server for one run needs none.
    const server = await startPostgres(found.binaries, { autovacuum: false });
    project.provide('postgres', { url: server.url });
    return () => server.stop();
  } catch (error) {
    project.provide('postgres', { error: `PostgreSQL could not be started for the tests: ${(error as Error).message}` });
    return undefined;
  }
}
