/// <reference types="vite/client" />
// What each area's `test/<area>/contract.ts` tells a contract-kit run over this server: the
// operations it waives (their valid request needs objects of an area not built yet) and what it
// prepares. Used by the kit's run against the server and by the run through the mock's proxy.
import * as areas from '../../src/areas/index.js';
import type { Api } from './harness.js';

interface AreaContract {
  waivers?: Record<string, string>;
  prepare?: (api: Api) => Promise<void>;
}
const perArea = Object.values(import.meta.glob<AreaContract>('../*/contract.ts', { eager: true }));

/** operationId → why its success cannot be proven yet. */
export const waivers = Object.assign({}, ...perArea.map((m) => m.waivers ?? {})) as Record<string, string>;
/** The tags of every area built. */
export const tags = Object.values(areas).flatMap((area) => area.tags);

export async function prepareAreas(api: Api): Promise<void> {
  for (const area of perArea) await area.prepare?.(api);
}

/** The failed checks of a kit run, but the success check of a waived operation. */
export function unexpectedFailures(result: any): string[] {
  return result.operations.flatMap((op: any) => op.requests.flatMap((r: any) => r.checks
    .filter((c: any) => c.outcome === 'fail' && !(op.operationId in waivers && c.name === 'success'))
    .map((c: any) => `${op.operationId} › ${r.label} › ${c.name}: ${c.reason}`)));
}
