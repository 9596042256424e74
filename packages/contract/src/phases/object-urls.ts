// Objects written through URLs the target hands out (x-presigned-url): the objects the selected
// operations name are written before they run, a container is emptied of what the run wrote
// before its delete, and an operation naming an object the run did not write is not sent.
import { describeAnswer, is2xx } from '../checks/answers.js';
import type { RequestKind, RequestRecord } from '../run/types.js';
import { bodyValue, exchange, exchangeView, useUrl } from './exchange.js';
import { type Operation, parameterExamples } from '../model/operations.js';
import { objectReference } from '../model/objects.js';
import { removeObjects, type UrlTools, writeObject } from './objects.js';
import { paramsFor } from './parameters.js';
import { evaluate, type Resource } from '../model/resources.js';
import type { Ledger } from '../run/ledger.js';
import type { Plan } from '../run/plan.js';
import { isLoopback } from '../transport/target.js';

const objectKey = (container: Resource, name: string) => `${container.id} ${name}`;

/**
 * Where an operation names an object of a site (getObjectAcl's `name`), and whether a name is
 * one this run did not write: what the run did not write is never changed, nor read.
 */
export function objectNamed(plan: Plan, ledger: Ledger, op: Operation, container: Resource | undefined) {
  const site = plan.stateful ? plan.sites.find((x) => objectReference(op, x)) : undefined;
  return {
    where: site && objectReference(op, site),
    field: site?.field ?? '',
    absent: (name: unknown) => typeof name === 'string' && !ledger.book.has(container, name),
    why: (name: unknown) => `it addresses the object "${String(name)}", which this run did not write${container && ledger.unwritten.has(objectKey(container, String(name))) ? `: ${ledger.unwritten.get(objectKey(container, String(name)))}` : ''}`,
  };
}

/** Writes, through a PUT URL, each object the selected operations name, in the container they address, before they run. */
export async function placeObjects(plan: Plan, ledger: Ledger): Promise<void> {
  if (!plan.safety.writes) return;
  for (const site of plan.sites) {
    for (const op of plan.selected) {
      const where = objectReference(op, site);
      const { owner } = ledger.registry.bind(op);
      if (!where || !owner) continue;
      const parameter = op.parameters.find((p) => p.in === 'query' && p.name === site.field);
      const names = where === 'query' ? [parameterExamples(plan.document, parameter!, plan.resolve).find((v) => plan.fits(parameter!, v))] : (op.body?.examples ?? []).map((e) => (e.value as Record<string, unknown>)?.[site.field]);
      for (const name of new Set(names)) {
        if (typeof name !== 'string' || ledger.book.has(owner, name) || ledger.unwritten.has(objectKey(owner, name))) continue;
        const why = await writeObject(site, owner, name, urlTools(plan, ledger, ledger.setup, 'setup'), ledger.book, plan.validBody(site.op), plan.namer.tag);
        if (why) ledger.unwritten.set(objectKey(owner, name), why);
      }
    }
  }
}

/** Removes what the run wrote in a container, so that its delete finds it empty. */
export async function emptyContainer(plan: Plan, ledger: Ledger, container: Resource, into: RequestRecord[], cleanup = false): Promise<void> {
  for (const site of plan.sites.filter((x) => x.containerPath === container.kind.itemPath)) {
    const left = await removeObjects(site, container, ledger.book.in(container), urlTools(plan, ledger, into, cleanup ? 'cleanup' : 'setup', cleanup), ledger.book, plan.validBody(site.op));
    if (left.length) ledger.notes.push(`${ledger.registry.describe(container)} still holds what the run wrote, so its delete may be refused: ${left.join('; ')}`);
  }
}

/** A URL is used where the run may write: on the target's host, on a loopback address, or anywhere with --allow-writes. */
async function urlAllowed(plan: Plan, url: string): Promise<boolean> {
  return plan.settings.allowWrites || new URL(url).host === new URL(plan.settings.baseUrl).host || (!plan.settings.remote && await isLoopback(url));
}

export function urlTools(plan: Plan, ledger: Ledger, into: RequestRecord[], kind: RequestKind, cleanup = false): UrlTools {
  return {
    async make(site, container, body, label) {
      const { params, missing } = await paramsFor(plan, ledger, site.op, into, container);
      if (missing) return { why: missing };
      const sent = await exchange(plan, ledger, site.op, into, label, kind, { params, body: bodyValue(site.op.body, body), auth: plan.authFor(site.op) }, () => [], { settle: true, cleanup, probe: true });
      if (!is2xx(sent.answer.status)) return { why: `${site.op.id} answered ${describeAnswer(sent.answer)}` };
      if (plan.settings.dry) return { url: `<URL made by ${site.op.id}>` };
      const url = evaluate(site.op.presigned!.url, exchangeView(params, body, sent.answer));
      if (typeof url !== 'string' || !URL.canParse(url, `${plan.settings.baseUrl}/`)) return { why: `its answer holds no URL where x-presigned-url says (${JSON.stringify(site.op.presigned!.url)})` };
      const absolute = new URL(url, `${plan.settings.baseUrl}/`).toString();
      if (!await urlAllowed(plan, absolute)) return { why: `the URL leads to ${new URL(absolute).host}, not to the target: --allow-writes uses it`, skip: true };
      return { url: absolute };
    },
    use: (use, label, judge) => useUrl(plan, ledger, use, into, label, kind, judge, cleanup),
    record: (label, checks) => { into.push({ label, kind, checks }); },
  };
}
