// Runs the contract against a target: the order of the phases, nothing else. The order is what a
// stateful implementation needs, read from the links: creates first (parents before children),
// each followed by a read and a walk of its list; then reads, updates (with the change read back)
// and actions on what was created; then 405 probes and walks of every list; destructive actions
// on one object; deletes, children first, each followed by a read (404) and a walk of its list
// (gone); account-wide destructive actions; last, clean-up of whatever the run created and did
// not delete. Each phase is a module taking the run's state (src/run-state.ts).
import { basePathOf } from '@cloudapi/spec/bundle';
import { loadDocument } from './model/operations.js';
import { cleanUp } from './phases/cleanup.js';
import type { ContractOptions, ContractResult } from './run/types.js';
import { discoverTarget } from './phases/discovery.js';
import { pathParameterNames } from './model/operations.js';
import { emptyContainer, placeObjects } from './phases/object-urls.js';
import { keepOneOfArea, runSafely, runSetupCreate, stillThere } from './phases/operation.js';
import { orderChanges, orderDeletes, planCreates } from './run/ordering.js';
import { listWalks, methodProbes } from './phases/probes.js';
import { RunState, Stop } from './run/state.js';
import { finish } from './phases/summary.js';
import { pool } from './transport/timing.js';

export { MOCK_TOKEN } from './run/types.js';
export type { ContractOptions, ContractResult, NotRun, OperationResult, RequestKind, RequestRecord } from './run/types.js';
export { selectOperations } from './run/selection.js';
export { isTransitional } from './phases/sequences.js';

export async function runContract(options: ContractOptions): Promise<ContractResult> {
  const document = options.document ?? loadDocument(options.spec);
  const serverPath = basePathOf(document);
  const s = new RunState(options, document, serverPath);
  const { baseUrl, notes } = s;

  // The target.
  if (!await discoverTarget(s)) return finish(s, { target: null, detection: s.detection, token: 'not used', abort: s.abort });
  if (serverPath && !new URL(baseUrl).pathname.replace(/\/+$/, '').endsWith(serverPath)) {
    notes.push(`the base URL does not end in ${serverPath}, the base path of the spec's server URL; operation paths are appended to it as given`);
  }
  planCreates(s);
  const { selected, selectedSet, ordered, needed, book } = s;
  const run = (op: Parameters<typeof runSafely>[1]) => runSafely(s, op);
  try {
    // The mock keeps no state, so order does not matter there: everything runs at once.
    if (!s.stateful) {
      await pool(selected, options.concurrency ?? 8, run);
      if (!s.abort) await methodProbes(s);
      throw new Stop();
    }
    // 1. creates
    for (const op of ordered) {
      if (!needed.has(op)) continue;
      if (selectedSet.has(op)) await run(op);
      else await runSetupCreate(s, op);
      if (s.abort) break;
    }
    // The objects the selected operations name, written before they run.
    if (!s.abort) await placeObjects(s);
    // 2. reads, updates and actions; 3. destructive actions on one object
    const middle = selected.filter((op) => !ordered.includes(op) && op.method !== 'delete');
    const reads = middle.filter((op) => !op.writes);
    const changes = orderChanges(middle.filter((op) => op.writes && !op.destructive));
    // A destructive action on one object (cancel an instance's backups) runs before that object is
    // deleted; one on the whole account (cancel Object Storage) after the deletes it would pre-empt,
    // when the account then holds only what the run made (prepare.ts) or with --allow-destructive.
    const destructive = middle.filter((op) => op.destructive);
    const onObjects = destructive.filter((op) => pathParameterNames(op.path).length > 0);
    const accountWide = destructive.filter((op) => pathParameterNames(op.path).length === 0);
    if (!s.abort) await pool(reads, options.concurrency ?? 1, run);
    if (!s.abort) await pool(changes, options.concurrency ?? 1, run);
    // 4. 405 for a method each path lacks, and every list walked
    if (!s.abort) await methodProbes(s);
    if (!s.abort) await listWalks(s);
    if (!s.abort) for (const op of onObjects) { await run(op); if (s.abort) break; }
    // 5. deletes, children first; 6. account-wide destructive actions
    if (!s.abort) {
      for (const op of orderDeletes(selected.filter((x) => x.method === 'delete'))) {
        // A container the run wrote objects in is emptied of them first.
        for (const container of book.containers().filter((c) => c.alive && c.kind.remove === op.id)) await emptyContainer(s, container, s.setup);
        await stillThere(s, op);
        await run(op);
        if (s.abort) break;
      }
    }
    if (!s.abort) {
      for (const op of accountWide) {
        await keepOneOfArea(s, op);
        await run(op);
        if (s.abort) break;
      }
    }
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
  for (const op of selected) {
    const r = s.resultOf(op)!;
    if (!r.requests.length && !r.unproven) r.unproven = s.abort ? `not reached: ${s.abort}` : 'not run';
  }
  const cleanup = await cleanUp(s);
  return finish(s, { target: s.target, detection: s.detection, safety: s.safety, token: s.tokenNote, abort: s.abort, cleanup });
}
