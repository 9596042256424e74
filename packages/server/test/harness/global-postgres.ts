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
    const server = await startPostgres(found.binaries);
    project.provide('postgres', { url: server.url });
    return () => server.stop();
  } catch (error) {
    project.provide('postgres', { error: `PostgreSQL could not be started for the tests: ${(error as Error).message}` });
    return undefined;
  }
}
