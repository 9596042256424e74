// Phase: ordering. The creates in the order the state needs (parents first, what a body refers to
// before the body), the creates the selection needs to stand on, and the order of the changes
// (undoing and replacing actions last). Read from the links and the examples, never from a table.
import { eachReference } from '../model/harvest.js';
import { type Operation, pathParameterNames } from '../model/operations.js';
import { harvestedKeysOf } from '../model/harvest.js';
import type { Basis, BundleModel, CreatePlan, TargetPlan } from './plan.js';

// An action that undoes another (detach after attach, shut down after boot) runs after the
// other actions, so that it finds something to undo; when the other could not be run, there is
// nothing to undo and the action is not proven rather than failed.
const UNDOING = /^(detach|shutDown|disable|unassign|remove)/;
// Actions that replace what an object holds: its children made before are gone afterwards.
const REPLACING = /^(restore|rebuild)/;
const OPPOSITE: Record<string, string> = { detach: 'attach', shutDown: 'boot', disable: 'enable', unassign: 'assign', remove: 'add' };

/** The action an undoing action undoes, on the same resource: attachVolume for detachVolume. */
export function undoneBy(ops: readonly Operation[], op: Operation): Operation | undefined {
  const verb = UNDOING.exec(op.id)?.[1];
  if (!verb) return undefined;
  const base = op.path.slice(0, op.path.lastIndexOf('/'));
  const wanted = `${OPPOSITE[verb]}${op.id.slice(verb.length)}`;
  return ops.find((o) => o.id.toLowerCase() === wanted.toLowerCase() && o.path.slice(0, o.path.lastIndexOf('/')) === base);
}

/**
 * The order of the changes: plain ones, then those that replace what an object holds (a rebuild
 * replaces a config's nodes, a restore an instance's disks), then undoing ones (detach, shut
 * down); within each, fewer path parameters first, then the spec's order.
 */
export function orderChanges(changes: Operation[]): Operation[] {
  const rank = (op: Operation) => (UNDOING.test(op.id) ? 2 : REPLACING.test(op.id) ? 1 : 0);
  return [...changes].sort((a, b) => rank(a) - rank(b) || pathParameterNames(a.path).length - pathParameterNames(b.path).length || a.index - b.index);
}

/** Deletes, children (longer paths) first, then the spec's order. */
export const orderDeletes = (deletes: Operation[]): Operation[] => [...deletes].sort((a, b) => b.path.split('/').length - a.path.split('/').length || a.index - b.index);

/** What the order of the creates needs from the bundle alone: the same for every run of a bundle model. */
interface CreateGraph {
  /** every create, in the order the state needs */
  ordered: Operation[];
  /** the creates of the kinds these path parameters (or body references) address */
  kindsOfParams: (params: Iterable<string>, context?: { path?: string; refs?: Set<string> }) => Operation[];
  /** the creates an operation needs before it */
  dependsOn: (op: Operation) => Operation[];
}

// Worked out once per bundle model (keyed by its operations, which runs of one model share):
// repeated runs in one process (tests, the Vitest entry) skip it.
const graphs = new WeakMap<readonly Operation[], CreateGraph>();

/** Every create, in the order the state needs (`ordered`), and those the selection needs to stand on (`needed`). */
export function planCreates(plan: Basis & Pick<TargetPlan, 'safety'>): CreatePlan {
  const { selected, selectedSet } = plan;
  if (!graphs.has(plan.ops)) graphs.set(plan.ops, createGraph({ ops: plan.ops, kindOf: plan.kindOf, creatable: plan.creatable, sourcesOf: plan.sourcesOf }));
  const { ordered, kindsOfParams, dependsOn } = graphs.get(plan.ops)!;
  const registry = { kindOf: plan.kindOf };

  // Creates the selection needs: its own, and those of every kind its operations are addressed by.
  const needed = new Set<Operation>(ordered.filter((op) => selectedSet.has(op)));
  const pending = [...selected];
  while (pending.length) {
    const op = pending.pop()!;
    for (const creator of [...kindsOfParams(pathParameterNames(op.path), { path: op.path }), ...dependsOn(op)]) {
      // One create per kind is enough to stand on: the plain one, not a clone.
      const plain = ordered.filter((c) => registry.kindOf(c) === registry.kindOf(creator)).sort((a, b) => pathParameterNames(a.path).length - pathParameterNames(b.path).length)[0];
      if (creator !== plain && !selectedSet.has(creator)) continue;
      if (creator !== op && !needed.has(creator) && !(creator.writes && !plan.safety.writes)) { needed.add(creator); pending.push(creator); }
    }
  }
  return Object.freeze({ ordered, needed });
}

function createGraph(plan: Pick<BundleModel, 'ops' | 'kindOf' | 'creatable' | 'sourcesOf'>): CreateGraph {
  const { ops } = plan;
  const registry = { kindOf: plan.kindOf };
  const creators = ops.filter((op) => op.links.length && registry.kindOf(op));
  // Path parameters are hard dependencies (a config needs its instance); references in a body
  // are soft ones, dropped where they would make a cycle (an instance may come from a backup of
  // another instance, and a backup needs an instance).
  // Two kinds may share a key name (the configs of instances and of balancers): the one meant is
  // the one whose item path holds the operation's path, or shares another referenced key.
  const kindsOfParams = (params: Iterable<string>, context: { path?: string; refs?: Set<string> } = {}) => {
    const out: Operation[] = [];
    for (const param of params) {
      const candidates = creators.filter((c) => registry.kindOf(c)!.keyParams.includes(param));
      const itemPath = (c: Operation) => registry.kindOf(c)!.itemPath ?? '';
      const fitting = candidates.filter((c) => (context.path !== undefined && context.path.startsWith(itemPath(c).slice(0, itemPath(c).indexOf(`{${param}}`))))
        || [...(context.refs ?? [])].some((r) => r !== param && pathParameterNames(itemPath(c)).includes(r)));
      out.push(...(fitting.length ? fitting : candidates));
    }
    return [...new Set(out)];
  };
  // A clone needs what it clones: a create of its own kind with fewer path parameters.
  const hardDeps = (op: Operation) => kindsOfParams(pathParameterNames(op.path), { path: op.path })
    .filter((c) => c !== op && (registry.kindOf(c) !== registry.kindOf(op) || pathParameterNames(c.path).length < pathParameterNames(op.path).length));
  const hardReaches = (from: Operation, to: Operation, seen = new Set<Operation>()): boolean => {
    if (seen.has(from)) return false;
    seen.add(from);
    return hardDeps(from).some((d) => d === to || registry.kindOf(d) === registry.kindOf(to) || hardReaches(d, to, seen));
  };
  const dependencies = new Map<Operation, Operation[]>();
  const dependsOn = (op: Operation): Operation[] => {
    if (dependencies.has(op)) return dependencies.get(op)!;
    const params = new Set<string>();
    for (const example of op.body?.examples ?? []) eachReference(example.value, (key) => params.add(key));
    // An id no operation creates is found in the answers of reads on what is created (a disk in
    // the profiles of an instance): those creates come first.
    for (const key of harvestedKeysOf(plan, op)) {
      const sources = plan.sourcesOf(key);
      const fewest = pathParameterNames(sources[0]!.path).length;
      for (const source of sources.filter((x) => pathParameterNames(x.path).length === fewest)) for (const name of pathParameterNames(source.path)) params.add(name);
    }
    const soft = kindsOfParams(params, { refs: params }).filter((c) => registry.kindOf(c) !== registry.kindOf(op) && !hardReaches(c, op));
    dependencies.set(op, [...new Set([...hardDeps(op), ...soft])]);
    return dependencies.get(op)!;
  };
  const ordered: Operation[] = [];
  const visiting = new Set<Operation>();
  const place = (op: Operation) => {
    if (ordered.includes(op) || visiting.has(op)) return;
    visiting.add(op);
    // A dependency that itself needs what is being placed (a clone of the volume a config
    // refers to) waits for its own turn.
    for (const dependency of dependsOn(op)) if (!hardDeps(dependency).some((d) => visiting.has(d))) place(dependency);
    visiting.delete(op);
    ordered.push(op);
  };
  for (const op of [...creators].sort((a, b) => pathParameterNames(a.path).length - pathParameterNames(b.path).length || a.index - b.index)) place(op);
  return { ordered, kindsOfParams, dependsOn };
}
