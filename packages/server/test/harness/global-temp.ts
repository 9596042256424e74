// Vitest global set-up of both projects: one folder under the system's temp folder for every data
// directory, tokens file and store the run's tests make (harness.ts's tempDir()), removed with all
// it holds when the run ends, instead of a folder per test server left behind in /tmp.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    tempRoot: string;
  }
}

export default function setup(project: TestProject) {
  const root = mkdtempSync(path.join(os.tmpdir(), `cloudapi-server-${project.name}-run-`));
  project.provide('tempRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}
