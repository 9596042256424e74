// Phase: clean-up. What the run made is booked when a create succeeds (any request, even one that
// should have been refused); what a check made on the way is deleted right after it; at the end
// every resource the run created and did not delete is deleted, children first, and what could
// not be is listed.
import { formatPointer, parsePointer } from '@cloudapi/spec/json-pointer';
import { describeAnswer, is2xx } from '../checks/answers.js';
import type { ContractResult, OperationResult, RequestRecord } from '../run/types.js';
import { exchange, exchangeView, type Sent } from './exchange.js';
import { isObject } from '../model/json.js';
import { type Operation, valueAt } from '../model/operations.js';
import { emptyContainer } from './object-urls.js';
import { answeredListed } from './preexisting.js';
import type { Params } from '../transport/requests.js';
import { type Resource, sameBindings } from '../model/resources.js';
import type { Ledger } from '../run/ledger.js';
import type { Plan } from '../run/plan.js';

/** Records what a 2xx of a create made (any request, even one that should have been refused). */
export function noteCreated(plan: Plan, ledger: Ledger, op: Operation, params: Params, body: unknown, sent: Sent, result?: OperationResult): Resource | undefined {
  const { registry } = ledger;
  if (!op.links.length || !is2xx(sent.answer.status)) return undefined;
  const held = answeredListed(plan, ledger, op, params, body, sent);
  if (held) { (result?.notes ?? ledger.notes).push(held); return undefined; }
  const resource = registry.record(op, exchangeView(params, body, sent.answer));
  if (resource && sent.dry) {
    for (const p of resource.kind.keyParams) {
      const placeholder = `<${p} made by ${op.id}>`;
      resource.bindings[p] = placeholder;
      for (const values of resource.perTarget.values()) if (p in values) values[p] = placeholder;
    }
  }
  if (resource) {
    const holder = valueAt(sent.answer.json, formatPointer(parsePointer(Object.values(resource.kind.keyPointers)[0]!).slice(0, -1)));
    ledger.knownStatus.set(resource, isObject(holder) ? holder.status : undefined);
  }
  if (!resource && registry.kindOf(op) && !sent.dry) result?.notes.push(`a ${sent.answer.status} of ${op.id} gave no key where its links point (${Object.values(registry.kindOf(op)!.keyPointers).join(', ')}): what it made cannot be cleaned up`);
  return resource;
}

/**
 * What a 2xx of a check did (a generated request, or a probe that should have been refused): a
 * create made something, deleted right after (discard); a delete removed its resource.
 */
export async function noteEffects(plan: Plan, ledger: Ledger, op: Operation, prepared: { params: Params; owner?: Resource }, body: unknown, sent: Sent, result?: OperationResult): Promise<void> {
  const made = noteCreated(plan, ledger, op, prepared.params, body, sent, result);
  const owner = prepared.owner;
  if (op.method === 'delete' && is2xx(sent.answer.status) && owner?.alive && owner.kind.remove === op.id && !sent.dry) ledger.registry.removed(owner);
  await discard(plan, ledger, made);
}

/** Deletes what the run made, emptied first of the objects the run wrote in it; why it could not, if so (a 404 counts as gone). */
export async function removeResource(plan: Plan, ledger: Ledger, resource: Resource, label: string, cleanup: boolean, into: RequestRecord[] = ledger.setup): Promise<string | undefined> {
  const remove = resource.kind.remove ? plan.byId.get(resource.kind.remove) : undefined;
  if (!remove) return 'no operation deletes it (no DELETE among its links)';
  if (ledger.book.in(resource).length) await emptyContainer(plan, ledger, resource, into, cleanup);
  const params: Params = { path: { ...(resource.perTarget.get(remove.id) ?? resource.bindings) }, query: {}, header: {} };
  const { answer } = await exchange(plan, ledger, remove, into, label, 'cleanup', { params, auth: plan.authFor(remove) }, () => [], { cleanup, settle: true });
  if (!is2xx(answer.status) && answer.status !== 404) return `${remove.id} answered ${describeAnswer(answer)}`;
  ledger.registry.removed(resource);
  return undefined;
}

/**
 * What a check made only on the way is deleted right after it, so the run's litter never
 * reaches a limit of the target (the volumes an instance may hold) that a later example needs.
 * What cannot be deleted now stays for the clean-up; an object the run already held (a create
 * that answered an existing one) is kept.
 */
export async function discard(plan: Plan, ledger: Ledger, resource: Resource | undefined): Promise<void> {
  const { registry } = ledger;
  if (!resource || !plan.stateful || plan.settings.dry || !resource.kind.remove) return;
  const same = (r: Resource) => r !== resource && r.kind === resource.kind && sameBindings(r.bindings, resource.bindings, r.kind.keyParams);
  if (registry.alive().some(same)) return;
  if (!await removeResource(plan, ledger, resource, `remove ${registry.describe(resource)}, made by a check`, false)) ledger.removedAfterCheck.push(registry.describe(resource));
}

/** Deletes every resource the run created and did not delete, children first. */
export async function cleanUp(plan: Plan, ledger: Ledger): Promise<ContractResult['cleanup']> {
  const removed: string[] = [];
  const leftBehind: { resource: string; reason: string }[] = [];
  const { registry, removedAfterCheck } = ledger;
  if (plan.target === 'mock' || plan.settings.dry) return { removed, leftBehind, removedAfterCheck };
  const left = registry.alive().sort((a, b) => Object.keys(b.bindings).length - Object.keys(a.bindings).length || b.id - a.id);
  for (const resource of left) {
    if (!resource.alive) continue;
    const why = await removeResource(plan, ledger, resource, `clean up ${registry.describe(resource)}`, true);
    if (why) leftBehind.push({ resource: registry.describe(resource), reason: why });
    else removed.push(registry.describe(resource));
  }
  return { removed, leftBehind, removedAfterCheck };
}
