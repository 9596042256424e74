// What the account held before the run's creates. Before the first create of a kind (under the
// same parents), the kit reads its list; an object a create then answers that the list already
// showed (a create of a label the account holds, answered with that object) is not the run's
// own: it is never changed as one, nor deleted at clean-up.
import type { RequestRecord } from '../run/types.js';
import { exchangeView, type Sent } from './exchange.js';
import { type Operation, pathParameterNames } from '../model/operations.js';
import type { Params } from '../transport/requests.js';
import { keyMatch } from '../model/resources.js';
import type { Ledger } from '../run/ledger.js';
import type { Plan } from '../run/plan.js';
import { walk } from './sequences.js';

const listKey = (list: Operation, parents: Record<string, unknown>) => `${list.id} ${JSON.stringify(parents)}`;

function listOf(plan: Plan, ledger: Ledger, op: Operation, path: Record<string, unknown>): { list: Operation; parents: Record<string, unknown> } | undefined {
  const kind = ledger.registry.kindOf(op);
  const list = kind?.list ? plan.byId.get(kind.list) : undefined;
  if (!list) return undefined;
  const parents = Object.fromEntries(pathParameterNames(list.path).map((n) => [n, path[n]]));
  return Object.values(parents).some((v) => v === undefined) ? undefined : { list, parents };
}

/** Reads, once per list and parents, what the list of a create's kind holds before the run's creates of that kind. */
export async function readBeforeCreate(plan: Plan, ledger: Ledger, op: Operation, params: Params, into: RequestRecord[] = ledger.setup): Promise<void> {
  if (!plan.stateful || plan.settings.dry) return;
  const found = listOf(plan, ledger, op, params.path);
  if (!found || ledger.listedBefore.has(listKey(found.list, found.parents))) return;
  const kind = ledger.registry.kindOf(op)!;
  ledger.listedBefore.set(listKey(found.list, found.parents), []);
  const walked = await walk(plan, ledger, found.list, found.parents, into, `before ${op.id}, what ${found.list.id} holds`);
  ledger.listedBefore.set(listKey(found.list, found.parents), (walked?.items ?? []).map((x) => x.item).filter((item) => !ledger.registry.made(kind, item)));
}

/** Whether a create's 2xx answered an object its list showed before the run's creates; what it says if so. */
export function answeredListed(plan: Plan, ledger: Ledger, op: Operation, params: Params, body: unknown, sent: Sent): string | undefined {
  if (!plan.stateful || sent.dry) return undefined;
  const address = ledger.registry.addressOf(op, exchangeView(params, body, sent.answer));
  const found = address && listOf(plan, ledger, op, { ...address.bindings, ...params.path });
  const before = found && ledger.listedBefore.get(listKey(found.list, found.parents));
  if (!address || !before?.some((item) => keyMatch(address, item))) return undefined;
  const key = address.kind.keyParams.map((p) => `${p}=${String(address.bindings[p])}`).join(', ');
  return `${op.id} answered ${key}, which ${found!.list.id} listed before the run's creates: not taken as the run's own (never changed as one, nor deleted)`;
}
