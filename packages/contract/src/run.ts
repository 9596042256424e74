// Runs the contract against a target: the order of the phases, nothing else. The options become
// the settings (every default resolved, run/settings.ts), the bundle's model and the selection
// the plan's basis; discovery adds what the target is; the creates are ordered from the links.
// The plan (run/plan.ts) is read by every phase and written by none; what they write is the
// ledger (run/ledger.ts). The order is what a stateful implementation needs: creates first
// (parents before children), each followed by a read and a walk of its list; then reads, updates
// (with the change read back) and actions on what was created; then 405 probes and walks of every
// list; destructive actions on one object; deletes, children first, each followed by a read (404)
// and a walk of its list (gone); account-wide destructive actions; last, clean-up of whatever the
// run created and did not delete.
import { loadDocument, type Operation, pathParameterNames } from './model/operations.js';
import { cleanUp } from './phases/cleanup.js';
import { discoverTarget } from './phases/discovery.js';
import { emptyContainer, placeObjects } from './phases/object-urls.js';
import { keepOneOfArea, runSafely, runSetupCreate, stillThere } from './phases/operation.js';
import { listWalks, methodProbes } from './phases/probes.js';
import { finish } from './phases/summary.js';
import { Ledger, Stop } from './run/ledger.js';
import { orderChanges, orderDeletes, planCreates } from './run/ordering.js';
import { type Basis, basisOf, bundleModel, type Plan } from './run/plan.js';
import { resolveSettings } from './run/settings.js';
import type { ContractOptions, ContractResult } from './run/types.js';
import { pool } from './transport/timing.js';

export { MOCK_TOKEN } from './run/types.js';
export type { ContractOptions, ContractResult, NotRun, OperationResult, RequestKind, RequestRecord } from './run/types.js';
export { selectOperations } from './run/selection.js';
export { isTransitional } from './phases/sequences.js';

type Phase = (plan: Plan, ledger: Ledger) => Promise<void>;

export async function runContract(options: ContractOptions): Promise<ContractResult> {
  const settings = resolveSettings(options);
  const basis = basisOf(settings, bundleModel(options.document ?? loadDocument(options.spec)));
  const ledger = new Ledger(settings, basis, basis.selected);
  const target = await discoverTarget(basis, ledger);
  if (target.target === null) return finish(basis, ledger, { target: null, detection: target.detection, token: 'not used', abort: ledger.abort });
  noteBasePath(basis, ledger);
  const plan: Plan = Object.freeze({ ...basis, ...target, ...planCreates({ ...basis, ...target }) });
  // The mock keeps no state, so order does not matter there: everything runs at once.
  const phases = plan.stateful
    ? [creates, placeObjects, reads, changes, methodProbes, listWalks, destructiveOnObjects, deletes, accountWideDestructive]
    : [everything, methodProbes];
  try {
    for (const phase of phases) {
      if (ledger.abort) break;
      await phase(plan, ledger);
    }
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
  for (const op of plan.selected) {
    const r = ledger.resultOf(op)!;
    if (!r.requests.length && !r.unproven) r.unproven = ledger.abort ? `not reached: ${ledger.abort}` : 'not run';
  }
  const cleanup = await cleanUp(plan, ledger);
  return finish(plan, ledger, { target: plan.target, detection: plan.detection, safety: plan.safety, token: plan.tokenNote, abort: ledger.abort, cleanup });
}

function noteBasePath({ serverPath, settings }: Basis, ledger: Ledger): void {
  if (serverPath && !new URL(settings.baseUrl).pathname.replace(/\/+$/, '').endsWith(serverPath)) {
    ledger.notes.push(`the base URL does not end in ${serverPath}, the base path of the spec's server URL; operation paths are appended to it as given`);
  }
}

/** Each operation in turn until the run stops. */
async function inTurn(plan: Plan, ledger: Ledger, ops: readonly Operation[], before: (op: Operation) => Promise<void> = async () => {}): Promise<void> {
  for (const op of ops) {
    await before(op);
    await runSafely(plan, ledger, op);
    if (ledger.abort) break;
  }
}

const everything: Phase = (plan, ledger) => pool([...plan.selected], plan.concurrency, (op) => runSafely(plan, ledger, op));

/** 1. The creates, in the order the state needs; those the selection only stands on are not counted. */
const creates: Phase = async (plan, ledger) => {
  for (const op of plan.ordered) {
    if (!plan.needed.has(op)) continue;
    if (plan.selectedSet.has(op)) await runSafely(plan, ledger, op);
    else await runSetupCreate(plan, ledger, op);
    if (ledger.abort) break;
  }
};

/** The selected operations that are neither creates nor deletes. */
const middle = (plan: Plan) => plan.selected.filter((op) => !plan.ordered.includes(op) && op.method !== 'delete');

/** 2. Reads, then updates and actions (undoing and replacing ones last). */
const reads: Phase = (plan, ledger) => pool(middle(plan).filter((op) => !op.writes), plan.concurrency, (op) => runSafely(plan, ledger, op));
const changes: Phase = (plan, ledger) => pool(orderChanges(middle(plan).filter((op) => op.writes && !op.destructive)), plan.concurrency, (op) => runSafely(plan, ledger, op));

// A destructive action on one object (cancel an instance's backups) runs before that object is
// deleted; one on the whole account (cancel Object Storage) after the deletes it would pre-empt,
// when the account then holds only what the run made (prepare.ts) or with --allow-destructive.
const destructive = (plan: Plan, onObject: boolean) => middle(plan).filter((op) => op.destructive && (pathParameterNames(op.path).length > 0) === onObject);

/** 3. Destructive actions on one object. */
const destructiveOnObjects: Phase = (plan, ledger) => inTurn(plan, ledger, destructive(plan, true));

/** 4. Deletes, children first; a container the run wrote objects in is emptied of them first. */
const deletes: Phase = (plan, ledger) => inTurn(plan, ledger, orderDeletes(plan.selected.filter((x) => x.method === 'delete')), async (op) => {
  for (const container of ledger.book.containers().filter((c) => c.alive && c.kind.remove === op.id)) await emptyContainer(plan, ledger, container, ledger.setup);
  await stillThere(plan, ledger, op);
});

/** 5. Account-wide destructive actions, each on an account holding an object of the run's own. */
const accountWideDestructive: Phase = (plan, ledger) => inTurn(plan, ledger, destructive(plan, false), (op) => keepOneOfArea(plan, ledger, op));
