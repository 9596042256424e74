// Ids the target named in its answers, by the field that named them. Some request fields refer to
// things no operation creates or lists on their own (a disk, named by `disk_id` in a config
// profile's devices and by `disks: [..]` in a clone): the spec's examples give ids of the
// examples' world (disk 25674), which a target has no reason to hold. Every answer the run gets
// is harvested for such fields; a request field of the same name whose example value the target
// never named is sent with one it did name, in the same context (the disks of the instance the
// request addresses), and in the same order the examples use (their lowest id → the lowest id
// the target named).
import { type Operation, pathParameterNames } from './operations.js';
import { referenceParameter } from './resources.js';
import { walkProperties } from '@cloudapi/spec/schema-walk';

/** The path parameter a field names (`disk_id` → `diskId`, `disks: [1, 2]` → `diskId`), for integers and integer arrays. */
export function referenceOf(field: string, value: unknown): string | undefined {
  const intArray = Array.isArray(value) && value.length > 0 && value.every((v) => Number.isInteger(v));
  return Number.isInteger(value) || intArray ? referenceParameter(field, intArray) : undefined;
}

/** Calls `visit` for every field of a JSON value that refers to something by id, with its key. */
export function eachReference(value: unknown, visit: (key: string, field: string, value: number | number[]) => void, depth = 0): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) { for (const item of value) eachReference(item, visit, depth + 1); return; }
  for (const [field, child] of Object.entries(value)) {
    const key = referenceOf(field, child);
    if (key) visit(key, field, child as number | number[]);
    else eachReference(child, visit, depth + 1);
  }
}

/** The reference keys a schema's fields may carry (`disk_id` somewhere inside a profile → `diskId`). */
export function referenceKeysOfSchema(schema: unknown, resolve: (node: any) => any): Set<string> {
  const keys = new Set<string>();
  walkProperties(schema, resolve, (field, _raw, property) => {
    const types = [].concat(property?.type ?? []);
    const itemTypes = [].concat(resolve(property?.items)?.type ?? []);
    if (types.includes('integer' as never)) { const k = referenceParameter(field, false); if (k) keys.add(k); }
    if (types.includes('array' as never) && itemTypes.includes('integer' as never)) { const k = referenceParameter(field, true); if (k) keys.add(k); }
  }, 16);
  return keys;
}

interface Seen { key: string; value: number; context: Record<string, unknown>; answer: number }

const consistent = (context: Record<string, unknown>, chosen: Record<string, unknown>) =>
  Object.entries(context).every(([k, v]) => chosen[k] === undefined || String(chosen[k]) === String(v));

/** The ids the examples of a document give for each kind of reference, lowest first. */
export function exampleIdsOf(ops: Operation[]): Map<string, number[]> {
  const ids = new Map<string, number[]>();
  for (const op of ops) {
    for (const example of op.body?.examples ?? []) {
      eachReference(example.value, (key, _field, value) => ids.set(key, [...new Set([...(ids.get(key) ?? []), ...[value].flat()])].sort((a, b) => a - b)));
    }
  }
  return ids;
}

/** The reads whose answers name ids of a kind (listComputeConfigs names disks), fewest path parameters first. */
export function idSources(ops: Operation[], answerSchema: (op: Operation) => unknown, resolve: (node: any) => any): (key: string) => Operation[] {
  const found = new Map<string, Operation[]>();
  return (key) => {
    if (!found.has(key)) {
      const naming = ops.filter((o) => o.method === 'get' && referenceKeysOfSchema(answerSchema(o), resolve).has(key));
      found.set(key, naming.sort((a, b) => pathParameterNames(a.path).length - pathParameterNames(b.path).length));
    }
    return found.get(key)!;
  };
}

export class Harvest {
  private readonly seen: Seen[] = [];
  private answers = 0;
  /**
   * `wanted`: the keys worth keeping (those the run does not track itself: what it creates has its
   * registry); `exampleIds`: the examples' ids by key, whose order the stand-ins keep.
   */
  constructor(private readonly wanted: (key: string) => boolean, private readonly exampleIds = new Map<string, number[]>()) {}

  /** Records the ids an answer names, with the path parameters of the request it answered. */
  record(body: unknown, context: Record<string, unknown>): void {
    const answer = ++this.answers;
    eachReference(body, (key, _field, value) => {
      if (!this.wanted(key)) return;
      for (const v of [value].flat()) {
        const before = this.seen.find((s) => s.key === key && s.value === v && JSON.stringify(s.context) === JSON.stringify(context));
        if (before) before.answer = answer;
        else this.seen.push({ key, value: v, context, answer });
      }
    });
  }

  /** Whether the target named `value` under `key` where the request's chosen values allow. */
  knows(key: string, value: unknown, chosen: Record<string, unknown>): boolean {
    return this.seen.some((s) => s.key === key && s.value === value && consistent(s.context, chosen));
  }

  /**
   * The ids to send for an example's (an id or a list of ids): each one the target named where the
   * request's values allow is kept, any other is replaced by the one the target named of the same
   * rank as the example's among the examples' ids; undefined when the target named none.
   */
  standIn(key: string, value: number | number[], chosen: Record<string, unknown>): number | number[] | undefined {
    const named = this.values(key, chosen);
    if (!named.length) return undefined;
    const rank = (v: number) => Math.max(0, this.exampleIds.get(key)?.indexOf(v) ?? 0);
    const one = (v: number) => (this.knows(key, v, chosen) ? v : named[Math.min(rank(v), named.length - 1)]!);
    return Array.isArray(value) ? value.map(one) : one(value);
  }

  /**
   * The values of `key` one answer named where `chosen` allows, lowest first: the answer about
   * most of what the request addresses (the part list of its machine), the latest of those.
   */
  values(key: string, chosen: Record<string, unknown>): number[] {
    const fitting = this.seen.filter((s) => s.key === key && consistent(s.context, chosen));
    const shared = (s: Seen) => Object.keys(s.context).filter((k) => chosen[k] !== undefined).length;
    const best = fitting.sort((a, b) => shared(b) - shared(a) || b.answer - a.answer)[0];
    return [...new Set(fitting.filter((s) => s.answer === best?.answer).map((s) => s.value))].sort((a, b) => a - b);
  }
}

/** The kinds of ids an operation's body examples give that no operation creates but some read names. */
export function harvestedKeysOf(bundle: { creatable: (key: string) => boolean; sourcesOf: (key: string) => Operation[] }, op: Operation): string[] {
  const keys = new Set<string>();
  for (const example of op.body?.examples ?? []) eachReference(example.value, (key) => { if (!bundle.creatable(key) && bundle.sourcesOf(key).length) keys.add(key); });
  return [...keys];
}
