// Phase: probes of the whole API rather than of one request. A method each path lacks must be
// answered 405 with an ErrorResponse; every list is walked at its smallest page size (each item
// once, as many as `results` says) and, where its items have filterable fields, through X-Filter.
import { FILTER_HEADER, filterSpecs as filterSpecsOf } from '@cloudapi/spec/filters';
import { excerpt } from '../checks/answers.js';
import { type Check, fail, pass } from '../checks/outcome.js';
import { exchange } from './exchange.js';
import { filterChecks } from '../checks/filter-checks.js';
import { send } from '../transport/http.js';
import type { Operation } from '../model/operations.js';
import { paramsFor } from './parameters.js';
import { prepare } from './prepare.js';
import { buildRequest } from '../transport/requests.js';
import { type Ledger, Stop } from '../run/ledger.js';
import type { Plan } from '../run/plan.js';
import { walk } from './sequences.js';

/**
 * The method a path lacks that a 405 probe sends: GET, or else PATCH, PUT or POST (never DELETE),
 * and never one another path template answers for the same URL (GET /backups/cancel is
 * GET /backups/{backupId} with "cancel" as the id). Undefined when it lacks none of them.
 */
export function lackingMethod(ops: readonly Pick<Operation, 'method' | 'path'>[], path: string): string | undefined {
  const has = new Set(ops.filter((op) => op.path === path).map((op) => op.method));
  const segments = path.split('/');
  const answeredElsewhere = (method: string) => ops.some((other) => other.method === method && other.path !== path && other.path.split('/').length === segments.length
    && other.path.split('/').every((part, i) => part === segments[i] || /^\{.+\}$/.test(part) || /^\{.+\}$/.test(segments[i]!)));
  return ['get', 'patch', 'put', 'post'].find((m) => !has.has(m) && !answeredElsewhere(m));
}

/**
 * What is wrong with the `Allow` header of a 405 (RFC 9110 §15.5.6: it must list the methods the
 * path serves): missing, naming the method just refused, or lacking one the path declares. HEAD
 * and OPTIONS beside them are fine. Undefined when it is right.
 */
export function allowProblem(allow: string | string[] | undefined, declared: string[], refused: string): string | undefined {
  if (allow === undefined) return `the 405 carries no Allow header; it must list ${declared.map((m) => m.toUpperCase()).join(', ')}`;
  const listed = new Set((Array.isArray(allow) ? allow.join(',') : allow).split(',').map((m) => m.trim().toUpperCase()).filter(Boolean));
  if (listed.has(refused.toUpperCase())) return `Allow is "${String(allow)}", which lists ${refused.toUpperCase()}, the method just refused`;
  const lacking = declared.map((m) => m.toUpperCase()).filter((m) => !listed.has(m));
  return lacking.length ? `Allow is "${String(allow)}", which lacks ${lacking.join(', ')} of the path's methods` : undefined;
}

const ALLOW = '405 carries Allow with the path\'s methods';

/** A 405 for a method each path of the selection lacks. */
export async function methodProbes(plan: Plan, ledger: Ledger): Promise<void> {
  const paths = [...new Set(plan.ops.map((op) => op.path))];
  for (const path of paths) {
    const owner = plan.ops.find((op) => op.path === path && plan.selectedSet.has(op));
    if (!owner) continue;
    const method = lackingMethod(plan.ops, path);
    if (!method) continue;
    const probeOp: Operation = { ...owner, method, writes: method !== 'get', destructive: false, raw: { ...owner.raw, responses: {} } };
    const result = ledger.resultOf(owner)!;
    const prepared = await prepare(plan, ledger, { ...probeOp, body: null }, result.requests);
    if (typeof prepared === 'string') { result.notes.push(`no 405 check (${method.toUpperCase()} ${path}): ${prepared}`); continue; }
    const label = `405 for ${method.toUpperCase()}, which ${path} lacks`;
    const request = await buildRequest({ baseUrl: plan.settings.baseUrl, method, path, params: prepared.params, auth: plan.authFor(owner) });
    if (plan.settings.dry) { await exchange(plan, ledger, probeOp, result.requests, label, 'method', { params: prepared.params, auth: plan.authFor(owner) }, () => []); continue; }
    if (ledger.outOfTime()) throw new Stop();
    const answer = await send(request, plan.settings.transport);
    const checks: Check[] = answer.error ? [fail(label, `no answer: ${answer.error}`)] : [answer.status === 405 ? pass(label) : fail(label, `answered ${answer.status} to ${method.toUpperCase()} ${path}: ${excerpt(answer.text, 120)}`)];
    if (answer.status === 405 && plan.ctx.errorSchemaPointer) {
      const valid = answer.json !== undefined && plan.views.validate('response', plan.ctx.errorSchemaPointer, answer.json).valid;
      checks.push(valid ? pass('405 body is an ErrorResponse') : fail('405 body is an ErrorResponse', `the 405 body is not an ErrorResponse: ${excerpt(answer.text, 120)}`));
    }
    if (answer.status === 405) {
      const problem = allowProblem(answer.headers.allow, plan.ops.filter((op) => op.path === path).map((op) => op.method), method);
      checks.push(problem ? fail(ALLOW, problem) : pass(ALLOW, String(answer.headers.allow)));
    }
    result.requests.push({ label, kind: 'method', method: request.method, url: request.url, status: answer.status ?? null, ms: Math.round(answer.ms), checks, curl: checks.some((c) => c.outcome === 'fail') ? plan.toCurl(request) : undefined });
  }
}

/** Every list walked at its smallest page size: each item once, as many as `results` says; then X-Filter where its items have filterable fields. */
export async function listWalks(plan: Plan, ledger: Ledger): Promise<void> {
  if (!plan.stateful || plan.settings.dry) return;
  for (const list of plan.selected.filter((op) => op.list)) {
    const result = ledger.resultOf(list)!;
    const { params, missing } = await paramsFor(plan, ledger, list, result.requests);
    if (missing) continue;
    const walked = await walk(plan, ledger, list, params.path, result.requests, `walk of every page`, { pastTheLast: true, recordPass: true });
    if (!walked) continue;
    const kind = [...plan.kinds.values()].find((k) => k.list === list.id);
    // X-Filter on lists whose items have filterable fields (src/filter-checks.ts).
    const spec = filterSpecsOf(plan.document).get(list.id);
    if (!spec || !kind) continue;
    const checks = await filterChecks({
      spec,
      all: walked,
      isOwn: (item) => ledger.registry.made(kind, item),
      walk: (text, label) => walk(plan, ledger, list, params.path, result.requests, label, { header: { [FILTER_HEADER]: text } }),
      probe: async (text, label, check) => { await exchange(plan, ledger, list, result.requests, label, 'negative', { params: { path: params.path, query: {}, header: { [FILTER_HEADER]: text } }, auth: plan.authFor(list) }, check); },
    });
    result.requests.push({ label: `X-Filter of ${list.id}`, kind: 'pagination', checks });
  }
}
