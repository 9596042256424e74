// The ledger of a run: everything its phases write. What the run created (the registry) and wrote
// (the object book), the ids the target named, the records of every request and each operation's
// result, the notes, and why it stopped (`abort`, with the counts that decide it). The plan
// (plan.ts) is what they read.
import { declaredStatuses } from '../checks/status-coverage.js';
import { exampleIdsOf, Harvest } from '../model/harvest.js';
import { ObjectBook } from '../model/objects.js';
import type { Operation } from '../model/operations.js';
import { type Resource, type ResourceKind, ResourceRegistry } from '../model/resources.js';
import type { Settings } from './settings.js';
import type { NotRun, OperationResult, RequestRecord } from './types.js';

/** Thrown to stop sending: the deadline, Ctrl-C, or an unusable target (the reason is in `abort`). */
export class Stop extends Error {}

export class Ledger {
  /** what the run created, and what of it is gone */
  readonly registry: ResourceRegistry;
  /** Objects written through URLs the target hands out (x-presigned-url), and why one could not be. */
  readonly book = new ObjectBook();
  readonly unwritten = new Map<string, string>();
  /** Ids the target names in its answers that no operation creates (disks): the registry tracks the rest. */
  readonly harvest: Harvest;
  readonly notes: string[] = [];
  readonly notRun: NotRun[] = [];
  /** the requests a dry run lists */
  readonly planned: string[] = [];
  /** requests made only to stand on (not counted for an operation) */
  readonly setup: RequestRecord[] = [];
  readonly results = new Map<Operation, OperationResult>();
  /** What checks made on the way and the run deleted right after them. */
  readonly removedAfterCheck: string[] = [];
  /** Values of path parameters found in a list (`${listPath} ${name}`). */
  readonly discovered = new Map<string, unknown>();
  /** What each list of a created kind held before the run's creates (`${listId} ${parents}` → items): preexisting.ts. */
  readonly listedBefore = new Map<string, unknown[]>();
  readonly unsettled = new Set<Resource>();
  readonly knownStatus = new Map<Resource, unknown>();
  /** why the run stopped sending, once it did */
  abort: string | undefined;
  transportFailures = 0;
  /** requests in a row of one operation that got no usable answer */
  readonly streaks = new Map<string, number>();
  rateLimitedInARow = 0;
  /** Valid requests in a row answered 429 or 503 (after their retries): a target that throttles or fails everything. */
  refusedInARow = 0;

  constructor(private readonly settings: Pick<Settings, 'deadline' | 'deadlineMs' | 'signal'>, bundle: { kinds: ReadonlyMap<string, ResourceKind>; ops: readonly Operation[]; byId: ReadonlyMap<string, Operation>; creatable: (param: string) => boolean }, selected: readonly Operation[]) {
    this.registry = new ResourceRegistry(bundle.kinds, bundle.byId);
    this.harvest = new Harvest((key) => !bundle.creatable(key), exampleIdsOf([...bundle.ops]));
    for (const op of selected) {
      this.results.set(op, { operationId: op.id, method: op.method.toUpperCase(), path: op.path, tags: op.tags, security: op.security, requests: [], notes: [], successValidated: false, tally: { pass: 0, fail: 0, warn: 0, skip: 0 }, declaredStatuses: declaredStatuses(op.raw.responses), seenStatuses: [] });
    }
  }

  /** Whether the run must stop sending (Ctrl-C, the deadline, or an abort already decided); records why. */
  outOfTime(): boolean {
    if (this.settings.signal?.aborted) this.abort ??= 'interrupted (Ctrl-C): stopped sending, cleaned up';
    else if (Date.now() > this.settings.deadline) this.abort ??= `the deadline of ${Math.round(this.settings.deadlineMs / 1000)} s was reached (--deadline)`;
    return this.abort !== undefined;
  }

  resultOf(op: Operation): OperationResult | undefined {
    return this.results.get(op);
  }
}
