// One operation's turn: what it addresses is still there and settled, then its valid requests (an
// update read back, a create read and listed), the URLs it hands out, its invalid, credential,
// scope and generated requests, and for a delete the 404 and the unlisted item after it. Also the
// creates made only to stand on, which are not counted.
import { fail, is2xx } from './checks.js';
import { noteCreated } from './cleanup.js';
import { exchange } from './exchange.js';
import { pathParameterNames, type Operation } from './model.js';
import { checkUrls } from './objects.js';
import { urlTools } from './object-urls.js';
import { authRequests, generatedRequests, negativeRequests, scopeRequests, validRequests } from './operation-checks.js';
import { undoneBy } from './ordering.js';
import { readBeforeCreate } from './preexisting.js';
import { prepare } from './prepare.js';
import { areaLists } from './destructive.js';
import { bodyValue, type RunState, Stop } from './run-state.js';
import { afterCreate, afterDelete, settled, updateRequest } from './sequences.js';

async function runOperation(s: RunState, op: Operation): Promise<void> {
  const result = s.resultOf(op)!;
  const { registry, stateful } = s;
  if (stateful && op.method !== 'delete') await forgetGone(s, op);
  const prepared = await prepare(s, op, result.requests);
  if (typeof prepared === 'string') { result.unproven = prepared; return; }
  // Nothing to undo when what it undoes could not be run (detach when attach had no instance).
  const undone = stateful ? undoneBy(s.ops, op) : undefined;
  const undoneWhy = undone && s.results.get(undone)?.unproven;
  if (undoneWhy) { result.unproven = `it undoes ${undone.id}, which could not be run: ${undoneWhy}`; return; }
  if (op.writes && prepared.owner) await settled(s, prepared.owner, result.requests);
  // An action (boot, resize, attach) may put what it acts on into a transitional status again.
  if (op.writes && prepared.owner && op.path !== prepared.owner.kind.itemPath) s.knownStatus.delete(prepared.owner);
  const isDelete = op.method === 'delete';
  if (!isDelete) {
    const updated = await updateRequest(s, op, result, prepared);
    if (!updated) {
      const sent = await validRequests(s, op, result, prepared);
      const first = sent.find((x) => is2xx(x.answer.status));
      const resource = first && registry.resources.find((r) => r.creator === op.id && r.primary && r.alive);
      if (resource && op.links.length) await afterCreate(s, op, result, resource);
    }
    // The URLs it hands out do what they are made for, on an object of the run's own.
    const site = s.sites.find((x) => x.op === op);
    if (site && stateful && !s.dry && prepared.owner) await checkUrls(site, prepared.owner, urlTools(s, result.requests, 'sequence'), s.book, s.validBody(op), s.namer.tag);
  }
  await negativeRequests(s, op, result, prepared);
  await authRequests(s, op, result, prepared);
  await scopeRequests(s, op, result, prepared);
  await generatedRequests(s, op, result, prepared);
  if (isDelete) {
    const owner = prepared.owner;
    if (owner && !owner.alive) {
      result.requests.push({ label: 'valid request', kind: 'positive', checks: [fail('success', `${registry.describe(owner)} was already deleted by a request above that should have been refused`)] });
      return;
    }
    const [sent] = await validRequests(s, op, result, prepared);
    if (sent && is2xx(sent.answer.status) && owner && owner.kind.remove === op.id) {
      registry.removed(owner);
      await afterDelete(s, op, result, owner);
    }
  }
}

/** Runs an operation; a kit error is a failure of that operation, a stop ends it quietly. */
export async function runSafely(s: RunState, op: Operation): Promise<void> {
  try {
    await runOperation(s, op);
  } catch (error) {
    if (error instanceof Stop) return;
    s.resultOf(op)!.requests.push({ label: 'kit error', kind: 'setup', checks: [fail('kit error', `the kit failed on this operation: ${(error as Error).stack || (error as Error).message}`)] });
  } finally {
    const r = s.resultOf(op)!;
    const failed = r.requests.reduce((n, q) => n + q.checks.filter((c) => c.outcome === 'fail').length, 0);
    s.options.onProgress?.(s.redact(`${failed ? '✖' : r.unproven ? '·' : '✔'} ${op.id}${r.unproven ? ` (not proven: ${r.unproven})` : failed ? ` (${failed} failed)` : ''}`));
  }
}

/**
 * What an operation addresses may be gone without a delete of the run (a later snapshot replaced
 * it, a restore took an instance's configs): each such object is forgotten after a read answers
 * 404, so the operation addresses one that still exists, or is not proven when none does.
 */
async function forgetGone(s: RunState, op: Operation): Promise<void> {
  if (s.dry) return;
  // Bounded: each try forgets one object; a run makes at most a few dozen of one kind.
  for (let tries = 0; tries < 64; tries++) {
    const { owner } = s.registry.bind(op);
    const read = owner?.kind.read ? s.byId.get(owner.kind.read) : undefined;
    if (!owner || !read || !owner.kind.itemPath || !op.path.startsWith(owner.kind.itemPath)) return;
    const path = Object.fromEntries(pathParameterNames(read.path).map((name) => [name, owner.bindings[name]]));
    if (Object.values(path).some((value) => value === undefined)) return;
    const { answer } = await exchange(s, read, s.setup, `is what ${op.id} addresses still there?`, 'setup', { params: { path, query: {}, header: {} }, auth: s.authFor(read) }, () => [], { probe: true });
    if (answer.status !== 404) return;
    s.registry.removed(owner);
  }
}

/**
 * Before a delete: the object it addresses may be gone already (a rebuild replaced the nodes of
 * its config, a delete of its parent took it along); then another is made to delete.
 */
export async function stillThere(s: RunState, op: Operation): Promise<void> {
  const read = s.ops.find((o) => o.method === 'get' && o.path === op.path);
  const { values, owner } = s.registry.bind(op);
  if (!read || !owner || pathParameterNames(op.path).some((name) => values[name] === undefined)) return;
  const { answer } = await exchange(s, read, s.setup, `is what ${op.id} deletes still there?`, 'setup', { params: { path: values, query: {}, header: {} }, auth: s.authFor(read) }, () => []);
  if (answer.status !== 404) return;
  s.registry.removed(owner);
  const creator = s.ordered.find((c) => s.registry.kindOf(c) === owner.kind);
  if (creator) await runSetupCreate(s, creator);
}

/** A create that only provides what selected operations need (its requests are not counted); a stop ends it quietly. */
export async function runSetupCreate(s: RunState, op: Operation): Promise<void> {
  try {
    const prepared = await prepare(s, op, s.setup);
    if (typeof prepared === 'string') { s.notes.push(`setup: ${op.id} was not run: ${prepared}`); return; }
    if (prepared.owner) await settled(s, prepared.owner, s.setup);
    await readBeforeCreate(s, op, prepared.params);
    // Each example in turn until one is accepted: one may name objects that no longer exist (the
    // disks of a profile after a restore replaced them).
    for (const example of prepared.bodies.length ? prepared.bodies : [null]) {
      // Not checked against the examples: named by this run from the start.
      const value = example?.renamed ?? example?.value;
      const sent = await exchange(s, op, s.setup, `setup: ${op.id}`, 'setup', { params: prepared.params, body: example && bodyValue(prepared.body, value), auth: s.authFor(op) }, () => [], { settle: s.stateful });
      noteCreated(s, op, prepared.params, value, sent);
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
export async function keepOneOfArea(s: RunState, op: Operation): Promise<void> {
  if (s.safety.destructive || s.dry) return;
  const lists = areaLists(s, op);
  for (const { kind } of lists) {
    if (s.registry.alive().some((r) => lists.some((l) => l.kind === r.kind))) return;
    const creator = s.ordered.find((c) => s.registry.kindOf(c) === kind && pathParameterNames(c.path).length === 0);
    if (creator) await runSetupCreate(s, creator);
  }
}
