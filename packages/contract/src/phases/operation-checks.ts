// Phase: the per-operation checks. Valid requests (one per example) must succeed; invalid
// variants must be refused naming the field; bad credentials get 401; tokens without a scope,
// grant or status get 403; generated bodies keep the contract.
import fc from 'fast-check';
import { pointerGet } from '@cloudapi/spec/schema-views';
import { bodyArbitrary } from '../model/arbitraries.js';
import { checkRefused, checkRejected, checkSuccess, is2xx } from '../checks/answers.js';
import { type Check, fail, pass, skip, warn } from '../checks/outcome.js';
import type { OperationResult, RequestRecord } from '../run/types.js';
import { noteCreated, noteEffects } from './cleanup.js';
import { bodyValue, exchange, type Prepared, type Sent } from './exchange.js';
import { type Answer, isJsonMedia } from '../transport/http.js';
import { isObject } from '../model/json.js';
import type { Operation } from '../model/operations.js';
import { withReferences } from './parameters.js';
import { answeredListed, readBeforeCreate } from './preexisting.js';
import { type Auth, buildRequest, type Params } from '../transport/requests.js';
import { type Ledger, Stop } from '../run/ledger.js';
import type { Plan } from '../run/plan.js';
import { pageChecks } from './sequences.js';
import { probesFor } from '../model/tokens.js';
import { UNIQUE_FIELDS } from '../run/unique.js';
import type { Variant } from '../model/variants.js';

/** Whether a 400 refuses a name of `body` (a label or domain that exists) by naming its field. */
export function nameTaken(answer: Pick<Answer, 'status' | 'json'>, body: unknown): boolean {
  if (answer.status !== 400 || !isObject(body)) return false;
  const fields = ((answer.json as any)?.errors ?? []).map((e: any) => e?.field);
  return UNIQUE_FIELDS.some((field) => typeof body[field] === 'string' && fields.includes(field));
}

export async function validRequests(plan: Plan, ledger: Ledger, op: Operation, result: OperationResult, prepared: Prepared): Promise<Sent[]> {
  const sentList: Sent[] = [];
  const positives = prepared.bodies.length ? prepared.bodies : [null];
  for (const [i, example] of positives.entries()) {
    const label = example ? `valid request (example "${example.name}")` : 'valid request';
    // One success proves the operation; a later example refused with a 4xx may only conflict
    // with what an earlier one made (a null MX record after an MX record): a warning.
    const success = (a: Answer) => {
      const checks = checkSuccess(a, 'built from the spec\'s examples');
      return i > 0 && plan.stateful && a.status !== undefined && a.status < 500 && !is2xx(a.status) && sentList.some((x) => is2xx(x.answer.status))
        ? checks.map((c) => ({ ...warn(c.name, `${c.reason}; an earlier example succeeded, and the examples may conflict under the service's rules`) })) : checks;
    };
    const checks = (a: Answer) => [...success(a), ...pageChecks(plan, op, a, prepared.params)];
    const send = (value: unknown, as: string, judge: (a: Answer) => Check[]) => exchange(plan, ledger, op, result.requests, as, 'positive',
      { params: prepared.params, body: example && bodyValue(prepared.body, value), auth: plan.authFor(op) }, judge, { settle: plan.stateful && op.writes });
    let value = example?.value;
    if (ledger.registry.kindOf(op)) await readBeforeCreate(plan, ledger, op, prepared.params);
    let sent = await send(value, label, (a) => (example?.renamed !== undefined && nameTaken(a, example.value) ? [] : checks(a)));
    // The example's name is taken: refused naming it, or answered with what the account held before.
    const held = answeredListed(plan, ledger, op, prepared.params, value, sent);
    const taken = nameTaken(sent.answer, example?.value) ? 'the example\'s are taken' : held ? 'the example\'s answered an object the account held before' : undefined;
    if (example?.renamed !== undefined && taken) {
      if (held) result.notes.push(held);
      value = example.renamed;
      sent = await send(value, `${label}, with this run's names (${taken})`, checks);
      example.value = value; // what later requests of this operation build on
    }
    noteCreated(plan, ledger, op, prepared.params, value, sent, result);
    sentList.push(sent);
  }
  return sentList;
}

export async function negativeRequests(plan: Plan, ledger: Ledger, op: Operation, result: OperationResult, prepared: Prepared): Promise<void> {
  if (!plan.settings.negative) return;
  const variants: (Variant & { location: string; parameter?: any })[] = [];
  const body = prepared.body;
  if (body && prepared.bodies.length) {
    for (const v of plan.deriver.deriveVariants(body.schemaPointer, prepared.bodies.map((e) => e.value), { jsonBody: isJsonMedia(body.mediaType) })) variants.push({ ...v, location: 'body' });
  }
  for (const parameter of op.parameters) {
    // A required header left out must be refused naming it (Schemathesis' missing_required_header).
    if (parameter.in === 'header' && parameter.required && prepared.params.header[parameter.name] !== undefined) {
      variants.push({ rule: 'required', value: undefined, location: 'header', parameter, fields: [parameter.name, parameter.name.toLowerCase()], description: `header ${parameter.name}: left out` });
    }
    if (!['path', 'query'].includes(parameter.in)) continue;
    const current = prepared.params[parameter.in as 'path' | 'query'][parameter.name];
    if (current === undefined) continue;
    for (const v of plan.deriver.parameterVariants(`${parameter.pointer}/schema`, current, parameter.in)) {
      variants.push({ ...v, location: parameter.in, parameter, fields: [parameter.name], description: `${parameter.in} parameter ${parameter.name}: ${v.description}` });
    }
  }
  for (const variant of variants) {
    const params = variant.parameter ? { ...prepared.params, [variant.location]: { ...prepared.params[variant.location as keyof Params], [variant.parameter.name]: variant.value } } : prepared.params;
    const value = variant.location === 'body' ? variant.value : prepared.bodies[0]?.value;
    const sent = await exchange(plan, ledger, op, result.requests, `invalid: ${variant.description} [${variant.rule}]`, 'negative', { params, body: bodyValue(body, value), auth: plan.authFor(op) }, (a) => checkRejected(plan.ctx, variant, a));
    await noteEffects(plan, ledger, op, { ...prepared, params }, value, sent, result);
  }
}

export async function authRequests(plan: Plan, ledger: Ledger, op: Operation, result: OperationResult, prepared: Prepared): Promise<void> {
  if (op.security === 'public') { result.notes.push('public: sent without a token'); return; }
  const { mainToken } = plan;
  const body = bodyValue(prepared.body, prepared.bodies[0]?.value);
  const unknown = `contract-unknown-${plan.settings.seed.toString(36)}-token`;
  const probes: { label: string; auth: Auth; expect: number | 'success' }[] = [];
  if (op.security === 'secured') probes.push({ label: '401 without a token', auth: { kind: 'none' }, expect: 401 });
  else result.notes.push('authentication optional: no 401 check without a token');
  probes.push({ label: '401 for "Bearer" without a token', auth: { kind: 'raw', lines: ['Bearer'] }, expect: 401 });
  probes.push({ label: '401 for a Basic credential', auth: { kind: 'raw', lines: ['Basic Y29udHJhY3Q6a2l0'] }, expect: 401 });
  if (plan.target === 'implementation') {
    probes.push({ label: '401 for an unknown token', auth: { kind: 'token', token: unknown }, expect: 401 });
    if (mainToken) probes.push({ label: '401 for two Authorization headers', auth: { kind: 'raw', lines: [`Bearer ${mainToken}`, `Bearer ${unknown}`] }, expect: 401 });
  }
  if (mainToken && !op.writes) probes.push({ label: 'a lower-case "bearer" scheme is accepted', auth: { kind: 'token', token: mainToken, scheme: 'bearer' }, expect: 'success' });
  for (const probe of probes) {
    const sent = await exchange(plan, ledger, op, result.requests, probe.label, 'auth', { params: prepared.params, body, auth: probe.auth },
      (a) => (probe.expect === 'success' ? checkSuccess(a, 'with the scheme written "bearer"').map((c) => ({ ...c, name: probe.label })) : checkRefused(probe.label, probe.expect, a, `to ${probe.label.replace(/^401 /, '').replace(/^for /, '')}`)));
    await noteEffects(plan, ledger, op, prepared, prepared.bodies[0]?.value, sent, result);
  }
}

export async function scopeRequests(plan: Plan, ledger: Ledger, op: Operation, result: OperationResult, prepared: Prepared): Promise<void> {
  if (!plan.stateful || !plan.tokens.length || op.security === 'public') return;
  const { probes, missing } = probesFor(op, plan.tokens);
  if (missing.length) result.notes.push(`scope checks not run for want of ${missing.join('; ')} in --tokens`);
  for (const probe of probes) {
    let value = prepared.bodies[0]?.value;
    if (probe.withTags && isObject(value) && !('tags' in value)) {
      const withTags = { ...value, tags: ['contract-kit'] };
      if (op.body && plan.validBody(op)(withTags)) value = withTags;
    }
    const sent = await exchange(plan, ledger, op, result.requests, probe.name, 'scope', { params: prepared.params, body: bodyValue(prepared.body, value), auth: { kind: 'token', token: probe.token.token } },
      (a) => (probe.expect === 'success' ? checkSuccess(a, `with a token whose scopes are "${probe.token.scopes}"`).map((c) => ({ ...c, name: probe.name })) : checkRefused(probe.name, 403, a, `to a token without ${probe.lacks}`)));
    await noteEffects(plan, ledger, op, prepared, value, sent, result);
  }
}

export async function generatedRequests(plan: Plan, ledger: Ledger, op: Operation, result: OperationResult, prepared: Prepared): Promise<void> {
  const runs = plan.settings.examples;
  if (!runs || !op.body || !isJsonMedia(op.body.mediaType) || op.method === 'delete') return;
  const { seed } = plan.settings;
  const schema = pointerGet(plan.document, op.body.schemaPointer);
  const arbitrary = bodyArbitrary(schema, prepared.bodies.map((b) => b.value), plan.resolve);
  const records: RequestRecord[] = [];
  const chosen = { ...(prepared.owner?.bindings ?? {}), ...prepared.params.path };
  let sentCount = 0;
  const property = fc.asyncProperty(arbitrary, async (generated) => {
    const { value, missing } = withReferences(plan, ledger, op, generated, chosen);
    fc.pre(!missing && plan.validBody(op)(value));
    sentCount++;
    const sent = await exchange(plan, ledger, op, records, 'generated request', 'generated', { params: prepared.params, body: bodyValue(op.body, value), auth: plan.authFor(op) },
      (a) => (plan.target === 'mock' ? checkSuccess(a, 'generated from the schema') : []));
    await noteEffects(plan, ledger, op, prepared, value, sent, result);
    const failed = sent.request.checks.filter((c) => c.outcome === 'fail');
    if (failed.length) throw new Error(failed.map((c) => `${c.name}: ${c.reason}`).join('; '));
  });
  const outcome = await fc.check(property, { numRuns: runs, seed, interruptAfterTimeLimit: 60_000, maxSkipsPerRun: 20 });
  if (ledger.abort) throw new Stop();
  const last = records.at(-1);
  if (outcome.failed && outcome.counterexample) {
    const [counterexample] = outcome.counterexample;
    const { value } = withReferences(plan, ledger, op, counterexample, chosen);
    const request = await buildRequest({ baseUrl: plan.settings.baseUrl, method: op.method, path: op.path, params: prepared.params, body: bodyValue(op.body, value), auth: plan.authFor(op) });
    const reason = outcome.errorInstance instanceof Error ? outcome.errorInstance.message : String(outcome.errorInstance);
    result.requests.push({
      label: `generated request, shrunk after ${outcome.numShrinks} steps (--seed ${seed})`, kind: 'generated', method: request.method, url: request.url, status: last?.status ?? null,
      checks: [fail('generated requests keep the contract', `${reason}; the smallest failing input: ${JSON.stringify(counterexample)}`)], curl: plan.toCurl(request),
    });
  } else if (sentCount) {
    result.requests.push({ label: `${sentCount} generated request${sentCount > 1 ? 's' : ''} (--seed ${seed})`, kind: 'generated', method: op.method.toUpperCase(), url: last?.url, status: last?.status ?? null, checks: [pass('generated requests keep the contract', `${sentCount} valid bodies from the schema, each answered within the contract`)] });
  } else {
    result.requests.push({ label: 'generated requests', kind: 'generated', checks: [skip('generated requests keep the contract', 'no generated body passed the schema\'s cross-field rules; only the examples were sent')] });
  }
}
