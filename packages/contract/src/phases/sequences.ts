// Phase: sequences along links. What a create made reads back and is listed once; an update's
// change reads back; a delete leaves a 404 and an unlisted item; what an operation acts on is
// waited for while it is in a transitional status. Lists are walked at their smallest page size.
import { parsePointer } from '@cloudapi/spec/json-pointer';
import { pointerGet, type SchemaViews } from '@cloudapi/spec/schema-views';
import { schemaParts } from '@cloudapi/spec/schema-walk';
import { checkSuccess, describeAnswer, is2xx, successSchemaPointer } from '../checks/answers.js';
import { type Check, fail, pass, skip, warn } from '../checks/outcome.js';
import type { OperationResult, RequestRecord } from '../run/types.js';
import { bodyValue, exchange, type Prepared, type Sent } from './exchange.js';
import type { Answer } from '../transport/http.js';
import { deepEqual, isObject } from '../model/json.js';
import { type Operation, pathParameterNames } from '../model/operations.js';
import { identityBy, pageProblems, type Walked, walkProblems } from '../checks/pages.js';
import { paramsFor } from './parameters.js';
import type { Params } from '../transport/requests.js';
import { keyMatch, type Resource } from '../model/resources.js';
import type { Ledger } from '../run/ledger.js';
import type { Plan } from '../run/plan.js';
import { sleep } from '../transport/timing.js';

/**
 * A status the resource leaves by itself (provisioning, booting, creating, resizing, pending):
 * a present participle, except "running", where an instance has settled.
 */
export const isTransitional = (status: unknown): boolean => typeof status === 'string' && /ing$/.test(status) && status !== 'running';

/** The readOnly property names of an object schema (through allOf), which a client cannot set. */
export function readOnlyNames(views: Pick<SchemaViews, 'resolve' | 'schemaAt'>, pointer: string | null): Set<string> {
  const names = new Set<string>();
  if (!pointer) return names;
  for (const part of schemaParts(views.schemaAt(pointer), { resolve: views.resolve, keywords: ['allOf'] })) {
    for (const [name, p] of Object.entries<any>(part.properties || {})) if (p?.readOnly || views.resolve(p)?.readOnly) names.add(name);
  }
  return names;
}

export const readBack = (plan: Plan, resource: Resource): Operation | undefined => (resource.kind.read ? plan.byId.get(resource.kind.read) : undefined);

export async function readResource(plan: Plan, ledger: Ledger, resource: Resource, into: RequestRecord[], label: string, extra: (a: Answer) => Check[] = () => []): Promise<Sent | undefined> {
  const read = readBack(plan, resource);
  if (!read) return undefined;
  const path = resource.perTarget.get(read.id) ?? resource.bindings;
  const { params } = await paramsFor(plan, ledger, read, into, resource);
  for (const name of pathParameterNames(read.path)) if (path[name] !== undefined) params.path[name] = path[name];
  return exchange(plan, ledger, read, into, label, 'sequence', { params, auth: plan.authFor(read) }, extra);
}

/** Page consistency of one list answer: page as asked, pages from results and page_size, data within the page. */
export function pageChecks(plan: Plan, op: Operation, answer: Answer, params: Params): Check[] {
  if (!op.list || !is2xx(answer.status)) return [];
  const size = Number(params.query.page_size ?? pointerGet(plan.document, `${op.parameters.find((p) => p.name === 'page_size')?.pointer ?? '#/none'}/schema`)?.default ?? NaN);
  const problems = pageProblems(answer.json, Number(params.query.page ?? 1), size);
  if (!problems) return [];
  return [problems.length ? fail('page consistent', problems.join('; ')) : pass('page consistent')];
}

export interface WalkOptions {
  /** headers of every page (an X-Filter: its own checks judge the pages) */
  header?: Record<string, string>;
  /** also ask for the page past the last, which must be empty: a server answering page 1 again shows */
  pastTheLast?: boolean;
  /** record the walk's check even when it passes (the walk of every list does) */
  recordPass?: boolean;
}

/** The identity of a list's items: the key fields of the kind it lists, else `id`. */
export function itemIdentity(plan: Plan, list: Operation): (item: unknown) => string {
  const kind = [...plan.kinds.values()].find((k) => k.list === list.id);
  return identityBy(kind ? Object.values(kind.keyPointers).map((p) => parsePointer(p).at(-1)!) : ['id']);
}

/**
 * Walks every page of a list at the smallest page size; returns the items with their page, or
 * undefined. Every walk without a header fails when an item comes twice or the items disagree
 * with `results` (each item once across the pages).
 */
export async function walk(plan: Plan, ledger: Ledger, list: Operation, pathValues: Record<string, unknown>, into: RequestRecord[], label: string, { header = {}, pastTheLast = false, recordPass = false }: WalkOptions = {}): Promise<Walked | undefined> {
  let params: Params = { path: { ...pathValues }, query: {}, header: { ...header } };
  if (!pathParameterNames(list.path).every((n) => pathValues[n] !== undefined)) {
    const bound = await paramsFor(plan, ledger, list, into);
    if (bound.missing) return undefined;
    params = { path: bound.params.path, query: {}, header: { ...header } };
  }
  const sizeParameter = list.parameters.find((p) => p.name === 'page_size');
  const smallest = sizeParameter ? plan.resolve(sizeParameter.schema)?.minimum : undefined;
  if (smallest !== undefined) params.query.page_size = smallest;
  const items: Walked['items'] = [];
  let total: number | undefined;
  let pages = 1;
  const ask = async (page: number, as: string) => {
    const query = { ...params.query, page };
    return (await exchange(plan, ledger, list, into, as, 'pagination', { params: { ...params, query }, auth: plan.authFor(list) }, (a) => pageChecks(plan, list, a, { ...params, query }))).answer;
  };
  for (let page = 1; page <= pages && page <= 40; page++) {
    const answer = await ask(page, `${label}: page ${page}`);
    if (!is2xx(answer.status) || !isObject(answer.json) || !Array.isArray(answer.json.data)) return undefined;
    total = Number.isInteger(answer.json.results) ? answer.json.results : total;
    pages = Number.isInteger(answer.json.pages) ? answer.json.pages : 1;
    for (const item of answer.json.data) items.push({ item, page });
  }
  const walked = { items, total, pages, complete: pages <= 40 };
  // A page past the last answers 200 with no items and the page asked for (spec/DECISIONS.md).
  if (pastTheLast && walked.complete) await ask(Math.max(pages, 1) + 1, `${label}: page ${Math.max(pages, 1) + 1}, past the last`);
  if (!Object.keys(header).length) {
    const problems = walkProblems(walked, itemIdentity(plan, list));
    const name = 'each item once across the pages';
    if (problems.length) into.push({ label: `every page of ${list.id} (${label})`, kind: 'pagination', checks: [fail(name, problems.join('; '))] });
    else if (recordPass) into.push({ label: `every page of ${list.id}`, kind: 'pagination', checks: [pass(name, `${items.length} items on ${pages} page(plan, ledger)`)] });
  }
  return walked;
}

async function listedCheck(plan: Plan, ledger: Ledger, resource: Resource, into: RequestRecord[], expected: boolean, when: string): Promise<void> {
  const list = resource.kind.list ? plan.byId.get(resource.kind.list) : undefined;
  if (!list) return;
  const parents = Object.fromEntries(pathParameterNames(list.path).map((n) => [n, resource.bindings[n]]));
  const walked = await walk(plan, ledger, list, parents, into, `${list.id} ${when}`);
  const name = expected ? 'listed after create' : 'unlisted after delete';
  if (!walked) { into.push({ label: `${list.id} ${when}`, kind: 'sequence', checks: [fail(name, `${list.id} could not be walked (see its pages above)`)] }); return; }
  const hits = walked.items.filter((x) => keyMatch(resource, x.item));
  const what = ledger.registry.describe(resource);
  let check: Check;
  if (expected) {
    check = hits.length === 1 ? pass(name, `on page ${hits[0]!.page}`)
      : hits.length ? fail(name, `${what} is listed ${hits.length} times by ${list.id} (pages ${hits.map((h) => h.page).join(', ')})`)
        : fail(name, `${what} is missing from ${list.id}: walked ${walked.pages} page(plan, ledger) of ${walked.total ?? '?'} results at the smallest page size`);
  } else {
    check = hits.length ? fail(name, `${what} is still listed by ${list.id} after its delete succeeded`) : pass(name);
  }
  into.push({ label: `${list.id} ${when}`, kind: 'sequence', checks: [check] });
}

export async function afterCreate(plan: Plan, ledger: Ledger, op: Operation, result: OperationResult, resource: Resource): Promise<void> {
  if (!plan.stateful || plan.settings.dry) return;
  const read = readBack(plan, resource);
  if (read) {
    const writable = (name: string) => !readOnlyNames(plan.views, successSchemaPointer(plan.document, read)).has(name);
    await readResource(plan, ledger, resource, result.requests, `read after create (${read.id})`, (a) => {
      if (!is2xx(a.status)) return [fail('read after create', `${read.id} answered ${describeAnswer(a)} for ${ledger.registry.describe(resource)}, which ${op.id} had just made`)];
      if (read.list || !isObject(a.json) || !isObject(resource.created)) return [pass('read after create')];
      const created = resource.created as Record<string, unknown>;
      const differ = Object.keys(created).filter((k) => k in (a.json as object) && writable(k) && !deepEqual(created[k], (a.json as any)[k]));
      return [differ.length ? fail('read after create', `${read.id} answers ${differ.map((k) => `${k} ${JSON.stringify((a.json as any)[k])}`).join(', ')}; ${op.id} answered ${differ.map((k) => JSON.stringify(created[k])).join(', ')}`) : pass('read after create')];
    });
  }
  await listedCheck(plan, ledger, resource, result.requests, true, 'after create');
}

/** An update whose change must be read back: the body is made to differ from the current state. */
export async function updateRequest(plan: Plan, ledger: Ledger, op: Operation, result: OperationResult, prepared: Prepared): Promise<boolean> {
  const resource = prepared.owner;
  if (!plan.stateful || plan.settings.dry || !resource || !resource.kind.updates.includes(op.id) || !prepared.bodies.length || !readBack(plan, resource)) return false;
  const before = await readResource(plan, ledger, resource, result.requests, 'read before update');
  if (!before || !is2xx(before.answer.status) || !isObject(before.answer.json)) return false;
  const current = before.answer.json as Record<string, unknown>;
  const valid = plan.validBody(op);
  // A new label of this run (a unique-label rule is not broken by the change); other fields
  // that already match are changed by hand.
  const body = { ...(plan.namer.rename(prepared.bodies[0]!.value, valid, ['label']) as Record<string, unknown>) };
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== 'string' || !deepEqual(value, current[key])) continue;
    for (const candidate of [`${value.slice(0, -2)}-u`, `${value}2`, `u${value.slice(1)}`]) {
      if (valid({ ...body, [key]: candidate })) { body[key] = candidate; break; }
    }
  }
  const sent = await exchange(plan, ledger, op, result.requests, 'valid request (changes the resource)', 'positive', { params: prepared.params, body: bodyValue(op.body, body), auth: plan.authFor(op) }, (a) => checkSuccess(a, 'built from the spec\'s examples'), { settle: true });
  if (!is2xx(sent.answer.status)) return true;
  // null means "not given" (the spec's DECISIONS): such a field keeps its value, so it is not a change to read back.
  const changed = Object.keys(body).filter((k) => k in current && body[k] !== null && !deepEqual(body[k], current[k]));
  await readResource(plan, ledger, resource, result.requests, 'read after update', (a) => {
    if (!is2xx(a.status) || !isObject(a.json)) return [fail('update read back', `the read after ${op.id} answered ${describeAnswer(a)}`)];
    const after = a.json as Record<string, unknown>;
    const stale = changed.filter((k) => k in after && deepEqual(after[k], current[k]));
    return [stale.length
      ? fail('update read back', `${op.id} sent ${stale.map((k) => `${k} ${JSON.stringify(body[k])}`).join(', ')} and answered ${sent.answer.status}, but the resource still reads ${stale.map((k) => JSON.stringify(current[k])).join(', ')}`)
      : changed.length ? pass('update read back', changed.join(', ')) : skip('update read back', 'the update body changes no field the read shows')];
  });
  return true;
}

/**
 * Waits (bounded by settleTimeoutMs) while what an operation acts on is in a transitional
 * status: an instance still provisioning cannot be booted yet, which is not a violation.
 */
export async function settled(plan: Plan, ledger: Ledger, resource: Resource, into: RequestRecord[]): Promise<void> {
  // What did not settle once is not waited for again: one timeout per resource at most.
  if (!plan.stateful || plan.settings.dry || !readBack(plan, resource) || ledger.unsettled.has(resource)) return;
  // A status known from the create or the last read is trusted until an action may change it.
  if (ledger.knownStatus.has(resource) && !isTransitional(ledger.knownStatus.get(resource))) return;
  const limit = plan.settings.settleTimeoutMs;
  const until = Date.now() + limit;
  const what = ledger.registry.describe(resource);
  let status: unknown;
  for (let pause = 100; ; pause = Math.min(pause * 2, 2000)) {
    const sent = await readResource(plan, ledger, resource, into, `wait for ${what} to settle`);
    status = isObject(sent?.answer.json) ? (sent!.answer.json as Record<string, unknown>).status : undefined;
    if (!is2xx(sent?.answer.status) || !isTransitional(status) || Date.now() + pause > until || ledger.outOfTime()) break;
    await sleep(pause);
  }
  ledger.knownStatus.set(resource, status);
  if (!isTransitional(status)) return;
  ledger.unsettled.add(resource);
  into.push({ label: `wait for ${what} to settle`, kind: 'sequence', checks: [warn('settles', `${what} was still "${status}" after ${limit} ms (--settle-timeout): the operation went ahead`)] });
}

export async function afterDelete(plan: Plan, ledger: Ledger, op: Operation, result: OperationResult, resource: Resource): Promise<void> {
  if (!plan.stateful || plan.settings.dry) return;
  const read = readBack(plan, resource);
  if (read) {
    await readResource(plan, ledger, resource, result.requests, `read after delete (${read.id})`, (a) => [
      a.status === 404 ? pass('404 after delete') : fail('404 after delete', `${read.id} answered ${describeAnswer(a)} for ${ledger.registry.describe(resource)} after ${op.id} answered success: expected 404 (no use after delete)`),
    ]);
  }
  await listedCheck(plan, ledger, resource, result.requests, false, 'after delete');
}
