// Before an operation's requests: whether it may run here at all (writes, tokens, destructive
// actions), its parameters, and its valid bodies (references pointed at what the run created,
// names of the run's own ready where the examples' are taken), or why it cannot be proven.
import type { RequestRecord } from './contract-types.js';
import { type Operation, pathParameterNames } from './model.js';
import { objectNamed } from './object-urls.js';
import { discoverIds, paramsFor, withReferences } from './parameters.js';
import type { Params } from './requests.js';
import type { Resource } from './resources.js';
import { sameBindings } from './resources.js';
import type { ExampleBody, Prepared, RunState } from './run-state.js';
import { walk } from './sequences.js';

export async function prepare(s: RunState, op: Operation, into: RequestRecord[], prefer?: Resource): Promise<Prepared | string> {
  if (op.writes && !s.safety.writes) return 'it changes state, and the target is neither the mock nor a loopback address: --allow-writes runs it';
  if (op.security === 'secured' && !s.mainToken) return 'it needs a token: give --token or a --tokens file with a full-access token';
  const { params, owner, missing } = await paramsFor(s, op, into, prefer);
  if (missing) return missing;
  const destroys = op.destructive && !s.safety.destructive ? await destroysOthers(s, op, params, into) : undefined;
  if (destroys) return destroys;
  const body = op.body;
  let bodies: ExampleBody[] = [];
  const object = objectNamed(s, op, owner);
  if (object.where === 'query' && object.absent(params.query[object.field])) return object.why(params.query[object.field]);
  if (body) {
    const validBody = s.validBody(op);
    const valid = body.examples.filter((e) => validBody(e.value));
    if (body.required && !valid.length) return `no valid request body example for ${body.mediaType}: give the request body a named example`;
    const chosen = { ...(owner?.bindings ?? {}), ...params.path };
    if (s.stateful) await discoverIds(s, op, chosen, into);
    const reasons: string[] = [];
    for (const example of valid) {
      const r = withReferences(s, op, example.value, chosen);
      if (r.missing) { reasons.push(r.missing); continue; }
      // What a create makes is named as the example says; if that name is taken (what an earlier
      // run, or another area's example, made), it is sent again with a name of this run.
      const renamed = s.stateful && s.registry.kindOf(op) ? s.namer.rename(r.value, validBody) : r.value;
      bodies.push({ name: example.name, value: r.value, ...(renamed !== r.value ? { renamed } : {}) });
    }
    if (object.where === 'body') {
      const named = (b: ExampleBody) => (b.value as Record<string, unknown>)[object.field];
      reasons.push(...bodies.filter((b) => object.absent(named(b))).map((b) => object.why(named(b))));
      bodies = bodies.filter((b) => !object.absent(named(b)));
    }
    if (!bodies.length && body.required) return reasons[0] ?? 'no request body could be built';
  }
  return { params, owner, bodies, body };
}

/**
 * Without --allow-destructive (and off the mock) a destructive action runs only where it
 * destroys nothing but what this run created: one object the run made, or, for an account-wide
 * one (run after the deletes), an account whose lists of its area's objects hold only what the
 * run made. A list of what no operation creates (clusters, regions) is the service's catalogue,
 * not the account's objects. Why it may not run, or undefined.
 */
async function destroysOthers(s: RunState, op: Operation, params: Params, into: RequestRecord[]): Promise<string | undefined> {
  const names = pathParameterNames(op.path);
  if (names.length) {
    const own = s.registry.alive().some((r) => sameBindings(r.bindings, params.path, names));
    return own ? undefined : 'a destructive action on an object this run did not create: --allow-destructive runs it';
  }
  const lists = s.ops.filter((o) => o.list && !pathParameterNames(o.path).length && o.tags.some((t) => op.tags.includes(t)))
    .flatMap((list) => [...s.kinds.values()].filter((k) => k.list === list.id).map((kind) => ({ list, kind })));
  if (!lists.length) return 'an account-wide destructive action, and no list of its area shows what it would destroy: --allow-destructive runs it';
  let others = 0;
  const holding: string[] = [];
  for (const { list, kind } of lists) {
    const walked = await walk(s, list, {}, into, `before ${op.id}, what ${list.id} holds`);
    if (s.dry) continue;
    if (!walked?.complete) return `an account-wide destructive action, and ${list.id} could not be read to its end: --allow-destructive runs it`;
    const foreign = walked.items.filter((x) => !s.registry.made(kind, x.item)).length;
    if (foreign) { others += foreign; holding.push(list.id); }
  }
  return others ? `the account holds ${others} object${others === 1 ? '' : 's'} this run did not create (${holding.join(', ')}); --allow-destructive runs it` : undefined;
}
