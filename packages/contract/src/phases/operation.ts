// One operation's turn: what it addresses is still there and settled, then its valid requests (an
// update read back, a create read and listed), the URLs it hands out, its invalid, credential,
// scope and generated requests, and for a delete the 404 and the unlisted item after it. Also the
// creates made only to stand on, which are not counted.
import { is2xx } from '../checks/answers.js';
import { fail } from '../checks/outcome.js';
import { noteCreated } from './cleanup.js';
import { bodyValue, exchange } from './exchange.js';
import { pathParameterNames, type Operation } from '../model/operations.js';
import { checkUrls } from './objects.js';
import { urlTools } from './object-urls.js';
import { authRequests, generatedRequests, negativeRequests, scopeRequests, validRequests } from './operation-checks.js';
import { undoneBy } from '../run/ordering.js';
import { readBeforeCreate } from './preexisting.js';
import { prepare } from './prepare.js';
import { areaLists } from './destructive.js';
import { type Ledger, Stop } from '../run/ledger.js';
import type { Plan } from '../run/plan.js';
import { afterCreate, afterDelete, settled, updateRequest } from './sequences.js';

async function runOperation(plan: Plan, ledger: Ledger, op: Operation): Promise<void> {
  const result = ledger.resultOf(op)!;
  const { registry } = ledger;
  const { stateful } = plan;
  if (stateful && op.method !== 'delete') await forgetGone(plan, ledger, op);
  const prepared = await prepare(plan, ledger, op, result.requests);
  if (typeof prepared === 'string') { result.unproven = prepared; return; }
  // Nothing to undo when what it undoes could not be run (detach when attach had no instance).
  const undone = stateful ? undoneBy(plan.ops, op) : undefined;
  const undoneWhy = undone && ledger.results.get(undone)?.unproven;
  if (undoneWhy) { result.unproven = `it undoes ${undone.id}, which could not be run: ${undoneWhy}`; return; }
  if (op.writes && prepared.owner) await settled(plan, ledger, prepared.owner, result.requests);
  // An action (boot, resize, attach) may put what it acts on into a transitional status again.
  if (op.writes && prepared.owner && op.path !== prepared.owner.kind.itemPath) ledger.knownStatus.delete(prepared.owner);
  const isDelete = op.method === 'delete';
  if (!isDelete) {
    const updated = await updateRequest(plan, ledger, op, result, prepared);
    if (!updated) {
      const sent = await validRequests(plan, ledger, op, result, prepared);
      const first = sent.find((x) => is2xx(x.answer.status));
      const resource = first && registry.resources.find((r) => r.creator === op.id && r.primary && r.alive);
      if (resource && op.links.length) await afterCreate(plan, ledger, op, result, resource);
    }
    // The URLs it hands out do what they are made for, on an object of the run's own.
    const site = plan.sites.find((x) => x.op === op);
    if (site && stateful && !plan.settings.dry && prepared.owner) await checkUrls(site, prepared.owner, urlTools(plan, ledger, result.requests, 'sequence'), ledger.book, plan.validBody(op), plan.namer.tag);
  }
  await negativeRequests(plan, ledger, op, result, prepared);
  await authRequests(plan, ledger, op, result, prepared);
  await scopeRequests(plan, ledger, op, result, prepared);
  await generatedRequests(plan, ledger, op, result, prepared);
  if (isDelete) {
    const owner = prepared.owner;
    if (owner && !owner.alive) {
      result.requests.push({ label: 'valid request', kind: 'positive', checks: [fail('success', `${registry.describe(owner)} was already deleted by a request above that should have been refused`)] });
      return;
    }
    const [sent] = await validRequests(plan, ledger, op, result, prepared);
    if (sent && is2xx(sent.answer.status) && owner && owner.kind.remove === op.id) {
      registry.removed(owner);
      await afterDelete(plan, ledger, op, result, owner);
    }
  }
}

/** Runs an operation; a kit error is a failure of that operation, a stop ends it quietly. */
export async function runSafely(plan: Plan, ledger: Ledger, op: Operation): Promise<void> {
  try {
    await runOperation(plan, ledger, op);
  } catch (error) {
    if (error instanceof Stop) return;
    ledger.resultOf(op)!.requests.push({ label: 'kit error', kind: 'setup', checks: [fail('kit error', `the kit failed on this operation: ${(error as Error).stack || (error as Error).message}`)] });
  } finally {
    const r = ledger.resultOf(op)!;
    const failed = r.requests.reduce((n, q) => n + q.checks.filter((c) => c.outcome === 'fail').length, 0);
    plan.settings.onProgress?.(plan.redact(`${failed ? '✖' : r.unproven ? '·' : '✔'} ${op.id}${r.unproven ? ` (not proven: ${r.unproven})` : failed ? ` (${failed} failed)` : ''}`));
  }
}

/**
 * What an operation addresses may be gone without a delete of the run (a later snapshot replaced
 * it, a restore took an instance's configs): each such object is forgotten after a read answers
 * 404, so the operation addresses one that still exists, or is not proven when none does.
 */
async function forgetGone(plan: Plan, ledger: Ledger, op: Operation): Promise<void> {
  if (plan.settings.dry) return;
  // Bounded: each try forgets one object; a run makes at most a few dozen of one kind.
  for (let tries = 0; tries < 64; tries++) {
    const { owner } = ledger.registry.bind(op);
    const read = owner?.kind.read ? plan.byId.get(owner.kind.read) : undefined;
    if (!owner || !read || !owner.kind.itemPath || !op.path.startsWith(owner.kind.itemPath)) return;
    const path = Object.fromEntries(pathParameterNames(read.path).map((name) => [name, owner.bindings[name]]));
    if (Object.values(path).some((value) => value === undefined)) return;
    const { answer } = await exchange(plan, ledger, read, ledger.setup, `is what ${op.id} addresses still there?`, 'setup', { params: { path, query: {}, header: {} }, auth: plan.authFor(read) }, () => [], { probe: true });
    if (answer.status !== 404) return;
    ledger.registry.removed(owner);
  }
}

/**
 * Before a delete: the object it addresses may be gone already (a rebuild replaced the nodes of
 * its config, a delete of its parent took it along); then another is made to delete.
 */
export async function stillThere(plan: Plan, ledger: Ledger, op: Operation): Promise<void> {
  const read = plan.ops.find((o) => o.method === 'get' && o.path === op.path);
  const { values, owner } = ledger.registry.bind(op);
  if (!read || !owner || pathParameterNames(op.path).some((name) => values[name] === undefined)) return;
  const { answer } = await exchange(plan, ledger, read, ledger.setup, `is what ${op.id} deletes still there?`, 'setup', { params: { path: values, query: {}, header: {} }, auth: plan.authFor(read) }, () => []);
  if (answer.status !== 404) return;
  ledger.registry.removed(owner);
  const creator = plan.ordered.find((c) => ledger.registry.kindOf(c) === owner.kind);
  if (creator) await runSetupCreate(plan, ledger, creator);
}

/** A create that only provides what selected operations need (its requests are not counted); a stop ends it quietly. */
export async function runSetupCreate(plan: Plan, ledger: Ledger, op: Operation): Promise<void> {
  try {
    const prepared = await prepare(plan, ledger, op, ledger.setup);
    if (typeof prepared === 'string') { ledger.notes.push(`setup: ${op.id} was not run: ${prepared}`); return; }
    if (prepared.owner) await settled(plan, ledger, prepared.owner, ledger.setup);
    await readBeforeCreate(plan, ledger, op, prepared.params);
    // Each example in turn until one is accepted: one may name objects that no longer exist (the
    // disks of a profile after a restore replaced them).
    for (const example of prepared.bodies.length ? prepared.bodies : [null]) {
      // Not checked against the examples: named by this run from the start.
      const value = example?.renamed ?? example?.value;
      const sent = await exchange(plan, ledger, op, ledger.setup, `setup: ${op.id}`, 'setup', { params: prepared.params, body: example && bodyValue(prepared.body, value), auth: plan.authFor(op) }, () => [], { settle: plan.stateful });
      noteCreated(plan, ledger, op, prepared.params, value, sent);
      if (is2xx(sent.answer.status)) break;
    }
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
}

/**
 * Before an account-wide destructive action run without --allow-destructive: it may run only
 * while an object of its area that this run created exists, and the area's deletes have run, so
 * one is made to stand on (a bucket for cancelling Object Storage). A server that refuses every
 * create gets no such object, and the action is not sent.
 */
export async function keepOneOfArea(plan: Plan, ledger: Ledger, op: Operation): Promise<void> {
  if (plan.safety.destructive || plan.settings.dry) return;
  const lists = areaLists(plan, op);
  for (const { kind } of lists) {
    if (ledger.registry.alive().some((r) => lists.some((l) => l.kind === r.kind))) return;
    const creator = plan.ordered.find((c) => ledger.registry.kindOf(c) === kind && pathParameterNames(c.path).length === 0);
    if (creator) await runSetupCreate(plan, ledger, creator);
  }
}
