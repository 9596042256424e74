// Phase: parameters and values. The path, query and header values of an operation (ids of what
// this run created, values found in a list, the spec's examples), or why they cannot be had; the
// references of a body pointed at what the run created; the ids the target names that no
// operation creates (disks), read where the target names them.
import type { RequestRecord } from '../run/types.js';
import { exchange } from './exchange.js';
import { eachReference, harvestedKeysOf, referenceOf } from '../model/harvest.js';
import { isObject } from '../model/json.js';
import { type Operation, parameterExamples, pathParameterNames } from '../model/operations.js';
import type { Params } from '../transport/requests.js';
import type { Resource } from '../model/resources.js';
import type { Ledger } from '../run/ledger.js';
import type { Plan } from '../run/plan.js';

/** Why a path parameter has no value: the creates of its kind, and what became of them. */
export function whyNotCreated(plan: Plan, ledger: Ledger, param: string): string {
  const creators = [...plan.kinds.values()].filter((k) => k.keyParams.includes(param)).flatMap((k) => k.creators);
  const states = creators.map((id) => {
    const op = plan.byId.get(id)!;
    const r = ledger.results.get(op);
    if (!r && !plan.needed.has(op)) return `${id} (not run)`;
    if (r?.unproven) return `${id} (not run: ${r.unproven})`;
    return `${id} (did not succeed)`;
  });
  return `needs a {${param}} this run created, and ${states.join(' or ') || 'no operation creates one'}`;
}

/** A value of a path parameter of what no operation creates: the first item of the list one level up. */
async function discover(plan: Plan, ledger: Ledger, op: Operation, name: string, into: RequestRecord[]): Promise<unknown> {
  const at = op.path.indexOf(`/{${name}}`);
  const listPath = op.path.slice(0, at);
  const key = `${listPath} ${name}`;
  if (ledger.discovered.has(key)) return ledger.discovered.get(key);
  const list = plan.ops.find((o) => o.method === 'get' && o.path === listPath);
  let value: unknown;
  if (list && !pathParameterNames(listPath).length) {
    const { answer } = await exchange(plan, ledger, list, into, `find a {${name}} in ${list.id}`, 'setup', { params: { path: {}, query: {}, header: {} }, auth: plan.authFor(list) }, () => []);
    const items = isObject(answer.json) && Array.isArray(answer.json.data) ? answer.json.data : Array.isArray(answer.json) ? answer.json : [];
    const first = items.find(isObject);
    if (first) value = [first[name], first.id, first[name.replace(/Id$/, '')]].find((v) => v !== undefined);
  }
  ledger.discovered.set(key, value);
  return value;
}

/** The parameters of an operation, or why they cannot be had (ids this run does not own). */
export async function paramsFor(plan: Plan, ledger: Ledger, op: Operation, into: RequestRecord[], prefer?: Resource): Promise<{ params: Params; owner?: Resource; missing?: string }> {
  const params: Params = { path: {}, query: {}, header: {} };
  const { values, owner } = ledger.registry.bind(op, prefer);
  // The other parameters are still filled when a path parameter is missing: a read of what the
  // run deleted (404 after delete) takes its path from the deleted object, the rest from here.
  let missing: string | undefined;
  for (const parameter of op.parameters) {
    const where = parameter.in as keyof Params;
    if (!params[where]) continue;
    if (parameter.in === 'path') {
      if (missing) continue;
      let value = values[parameter.name];
      if (value === undefined) {
        // What this run did not create is never changed; reads of it are not attempted either,
        // so a failed create shows as the reason, not as a string of 404s.
        if (plan.stateful && (op.writes || ledger.registry.creatable(parameter.name))) { missing = whyNotCreated(plan, ledger, parameter.name); continue; }
        if (plan.stateful) value = await discover(plan, ledger, op, parameter.name, into);
        if (value === undefined || !plan.fits(parameter, value)) value = parameterExamples(plan.document, parameter, plan.resolve).find((v) => plan.fits(parameter, v));
      }
      if (value === undefined) { missing = `no value for the path parameter {${parameter.name}}: give it an example`; continue; }
      // A path holds text: an id an answer gave as a number fits a parameter typed as a string.
      if (typeof value === 'number' && !plan.fits(parameter, value) && plan.fits(parameter, String(value))) value = String(value);
      params.path[parameter.name] = value;
      continue;
    }
    const hasExample = parameter.example !== undefined || parameter.examples !== undefined;
    if (!parameter.required && !hasExample) continue;
    const value = parameterExamples(plan.document, parameter, plan.resolve).find((v) => plan.fits(parameter, v));
    if (value === undefined) {
      if (parameter.required) missing ??= `no valid value for the ${parameter.in} parameter "${parameter.name}": give it an example`;
      continue;
    }
    params[where][parameter.name] = value;
  }
  return { params, owner, ...(missing ? { missing } : {}) };
}

/** Reads where the target names the ids the body refers to (the disks of the instance addressed), fresh before each operation that sends them. */
export async function discoverIds(plan: Plan, ledger: Ledger, op: Operation, chosen: Record<string, unknown>, into: RequestRecord[]): Promise<void> {
  if (plan.settings.dry) return;
  for (const key of harvestedKeysOf(plan, op)) {
    // The read about what the request addresses first (the profiles of its instance), then any the run can address.
    const unknown = (source: Operation) => pathParameterNames(source.path).filter((n) => chosen[n] === undefined).length;
    for (const source of [...plan.sourcesOf(key)].sort((a, b) => unknown(a) - unknown(b))) {
      const names = pathParameterNames(source.path);
      const { values } = ledger.registry.bind(source);
      const path = Object.fromEntries(names.map((n) => [n, chosen[n] ?? values[n]]));
      if (names.some((n) => path[n] === undefined)) continue;
      await exchange(plan, ledger, source, into, `find the ${key}s the target names (${source.id})`, 'setup', { params: { path, query: {}, header: {} }, auth: plan.authFor(source) }, () => [], { probe: true });
      break;
    }
  }
}

/**
 * A body with its references to other resources (`compute_id`, `volumes: [..]`) pointed at what
 * this run created. A reference to a kind the run could have created but did not is left out
 * when the body stays valid without it; otherwise the body cannot be sent.
 */
export function withReferences(plan: Plan, ledger: Ledger, op: Operation, value: unknown, chosen: Record<string, unknown>): { value: unknown; missing?: string } {
  if (plan.target === 'mock' || !op.body) return { value };
  let missing: string | undefined;
  const picked = { ...chosen };
  const visit = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, depth + 1));
    if (!isObject(node) || depth > 6) return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      const param = referenceOf(key, child);
      const intArray = Array.isArray(child);
      if (param && ledger.registry.creatable(param)) {
        const resource = ledger.registry.referenceFor(param, picked);
        if (resource) {
          picked[param] = resource.bindings[param];
          for (const [k, v] of Object.entries(resource.bindings)) picked[k] ??= v;
          out[key] = intArray ? [resource.bindings[param]] : resource.bindings[param];
        } else {
          missing ??= `its body refers to ${key}: ${whyNotCreated(plan, ledger, param)}`;
        }
        continue;
      }
      const named = param ? ledger.harvest.standIn(param, child as number | number[], picked) : undefined;
      out[key] = named ?? visit(child, depth + 1);
    }
    return out;
  };
  const replaced = visit(value, 0);
  if (missing && !plan.validBody(op)(replaced)) return { value: replaced, missing };
  return { value: replaced };
}
