// Destructive actions without --allow-destructive (and off the mock): one runs only where it
// destroys nothing but what this run created. On one object: an object the run made. On the
// whole account (run after the deletes): while an object of its area that this run created
// still exists, and the lists of its area's objects hold nothing else. A list of what no
// operation creates (clusters, regions) is the service's catalogue, not the account's objects.
import type { RequestRecord } from '../run/types.js';
import { type Operation, pathParameterNames } from '../model/operations.js';
import type { Params } from '../transport/requests.js';
import { type ResourceKind, sameBindings } from '../model/resources.js';
import type { Ledger } from '../run/ledger.js';
import type { Plan } from '../run/plan.js';
import { walk } from './sequences.js';

/** The lists of an account-wide action's area (same tag, no path parameter) and the kinds of objects they list. */
export function areaLists(plan: Plan, op: Operation): { list: Operation; kind: ResourceKind }[] {
  return plan.ops.filter((o) => o.list && !pathParameterNames(o.path).length && o.tags.some((t) => op.tags.includes(t)))
    .flatMap((list) => [...plan.kinds.values()].filter((k) => k.list === list.id).map((kind) => ({ list, kind })));
}

/** Why a destructive action may not run here without --allow-destructive, or undefined. */
export async function destroysOthers(plan: Plan, ledger: Ledger, op: Operation, params: Params, into: RequestRecord[]): Promise<string | undefined> {
  const names = pathParameterNames(op.path);
  if (names.length) {
    const own = ledger.registry.alive().some((r) => sameBindings(r.bindings, params.path, names));
    return own ? undefined : 'a destructive action on an object this run did not create: --allow-destructive runs it';
  }
  const lists = areaLists(plan, op);
  if (!lists.length) return 'an account-wide destructive action, and no list of its area shows what it would destroy: --allow-destructive runs it';
  let others = 0;
  const holding: string[] = [];
  for (const { list, kind } of lists) {
    const walked = await walk(plan, ledger, list, {}, into, `before ${op.id}, what ${list.id} holds`);
    if (plan.settings.dry) continue;
    if (!walked?.complete) return `an account-wide destructive action, and ${list.id} could not be read to its end: --allow-destructive runs it`;
    const foreign = walked.items.filter((x) => !ledger.registry.made(kind, x.item)).length;
    if (foreign) { others += foreign; holding.push(list.id); }
  }
  if (others) return `the account holds ${others} object${others === 1 ? '' : 's'} this run did not create (${holding.join(', ')}); --allow-destructive runs it`;
  // Empty lists prove nothing about what the action reaches (a server may hide objects, or refuse
  // every create): it runs only on an account that visibly holds an object of the run's own.
  const kinds = new Set(lists.map((l) => l.kind));
  if (!plan.settings.dry && !ledger.registry.alive().some((r) => kinds.has(r.kind))) {
    const creators = [...kinds].flatMap((k) => k.creators.slice(0, 1));
    return `an account-wide destructive action, and no object of its area that this run created exists (${creators.join(', ')} made none that is left): --allow-destructive runs it`;
  }
  return undefined;
}
