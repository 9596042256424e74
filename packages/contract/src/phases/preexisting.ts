// What the account held before the run's creates. Before the first create of a kind (under the
// same parents), the kit reads its list; an object a create then answers that the list already
// showed (a create of a label the account holds, answered with that object) is not the run's
// own: it is never changed as one, nor deleted at clean-up.
import type { RequestRecord } from '../run/types.js';
import type { Sent } from './exchange.js';
import { type Operation, pathParameterNames } from '../model/operations.js';
import type { Params } from '../transport/requests.js';
import { keyMatch } from '../model/resources.js';
import { exchangeView, type RunState } from '../run/state.js';
import { walk } from './sequences.js';

const listKey = (list: Operation, parents: Record<string, unknown>) => `${list.id} ${JSON.stringify(parents)}`;

function listOf(s: RunState, op: Operation, path: Record<string, unknown>): { list: Operation; parents: Record<string, unknown> } | undefined {
  const kind = s.registry.kindOf(op);
  const list = kind?.list ? s.byId.get(kind.list) : undefined;
  if (!list) return undefined;
  const parents = Object.fromEntries(pathParameterNames(list.path).map((n) => [n, path[n]]));
  return Object.values(parents).some((v) => v === undefined) ? undefined : { list, parents };
}

/** Reads, once per list and parents, what the list of a create's kind holds before the run's creates of that kind. */
export async function readBeforeCreate(s: RunState, op: Operation, params: Params, into: RequestRecord[] = s.setup): Promise<void> {
  if (!s.stateful || s.dry) return;
  const found = listOf(s, op, params.path);
  if (!found || s.listedBefore.has(listKey(found.list, found.parents))) return;
  const kind = s.registry.kindOf(op)!;
  s.listedBefore.set(listKey(found.list, found.parents), []);
  const walked = await walk(s, found.list, found.parents, into, `before ${op.id}, what ${found.list.id} holds`);
  s.listedBefore.set(listKey(found.list, found.parents), (walked?.items ?? []).map((x) => x.item).filter((item) => !s.registry.made(kind, item)));
}

/** Whether a create's 2xx answered an object its list showed before the run's creates; what it says if so. */
export function answeredListed(s: RunState, op: Operation, params: Params, body: unknown, sent: Sent): string | undefined {
  if (!s.stateful || sent.dry) return undefined;
  const address = s.registry.addressOf(op, exchangeView(params, body, sent.answer));
  const found = address && listOf(s, op, { ...address.bindings, ...params.path });
  const before = found && s.listedBefore.get(listKey(found.list, found.parents));
  if (!address || !before?.some((item) => keyMatch(address, item))) return undefined;
  const key = address.kind.keyParams.map((p) => `${p}=${String(address.bindings[p])}`).join(', ');
  return `${op.id} answered ${key}, which ${found!.list.id} listed before the run's creates: not taken as the run's own (never changed as one, nor deleted)`;
}
