// Which operations a run checks: --only and --skip, then --shard. Pure, unit-tested on its own.
import type { ContractOptions } from './types.js';
import type { Operation } from '../model/operations.js';

function matchesFilter(op: Operation, list: string[]): boolean {
  return list.some((entry) => entry === op.id || op.tags.includes(entry) || entry.toLowerCase() === `${op.method} ${op.path}`.toLowerCase());
}

/** The operations a run checks: --only and --skip (areas, operationIds, `METHOD /path`), then its --shard. */
export function selectOperations(ops: Operation[], options: Pick<ContractOptions, 'only' | 'skip' | 'shard'>): Operation[] {
  const chosen = ops.filter((op) => (!options.only?.length || matchesFilter(op, options.only)) && !(options.skip?.length && matchesFilter(op, options.skip)));
  if (!options.shard) return chosen;
  const order = [...chosen].sort((a, b) => a.id.localeCompare(b.id));
  return chosen.filter((op) => order.indexOf(op) % options.shard!.count === options.shard!.index - 1);
}
