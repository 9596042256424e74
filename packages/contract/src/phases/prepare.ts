// Before an operation's requests: whether it may run here at all (writes, tokens, destructive
// actions), its parameters, and its valid bodies (references pointed at what the run created,
// names of the run's own ready where the examples' are taken), or why it cannot be proven.
import type { RequestRecord } from '../run/types.js';
import { destroysOthers } from './destructive.js';
import type { ExampleBody, Prepared } from './exchange.js';
import type { Operation } from '../model/operations.js';
import { objectNamed } from './object-urls.js';
import { discoverIds, paramsFor, withReferences } from './parameters.js';
import type { Resource } from '../model/resources.js';
import type { Ledger } from '../run/ledger.js';
import type { Plan } from '../run/plan.js';

export async function prepare(plan: Plan, ledger: Ledger, op: Operation, into: RequestRecord[], prefer?: Resource): Promise<Prepared | string> {
  if (op.writes && !plan.safety.writes) return 'it changes state, and the target is neither the mock nor a loopback address: --allow-writes runs it';
  if (op.security === 'secured' && !plan.mainToken) return 'it needs a token: give --token or a --tokens file with a full-access token';
  const { params, owner, missing } = await paramsFor(plan, ledger, op, into, prefer);
  if (missing) return missing;
  const destroys = op.destructive && !plan.safety.destructive ? await destroysOthers(plan, ledger, op, params, into) : undefined;
  if (destroys) return destroys;
  const body = op.body;
  let bodies: ExampleBody[] = [];
  const object = objectNamed(plan, ledger, op, owner);
  if (object.where === 'query' && object.absent(params.query[object.field])) return object.why(params.query[object.field]);
  if (body) {
    const validBody = plan.validBody(op);
    const valid = body.examples.filter((e) => validBody(e.value));
    if (body.required && !valid.length) return `no valid request body example for ${body.mediaType}: give the request body a named example`;
    const chosen = { ...(owner?.bindings ?? {}), ...params.path };
    if (plan.stateful) await discoverIds(plan, ledger, op, chosen, into);
    const reasons: string[] = [];
    for (const example of valid) {
      const r = withReferences(plan, ledger, op, example.value, chosen);
      if (r.missing) { reasons.push(r.missing); continue; }
      // What a create makes is named as the example says; if that name is taken (what an earlier
      // run, or another area's example, made), it is sent again with a name of this run.
      const renamed = plan.stateful && ledger.registry.kindOf(op) ? plan.namer.rename(r.value, validBody) : r.value;
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
