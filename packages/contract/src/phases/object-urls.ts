// Objects written through URLs the target hands out (x-presigned-url): the objects the selected
// operations name are written before they run, a container is emptied of what the run wrote
// before its delete, and an operation naming an object the run did not write is not sent.
import { describeAnswer, is2xx } from '../checks/answers.js';
import type { RequestKind, RequestRecord } from '../run/types.js';
import { exchange, useUrl } from './exchange.js';
import { type Operation, parameterExamples } from '../model/operations.js';
import { objectReference, removeObjects, type UrlTools, writeObject } from './objects.js';
import { paramsFor } from './parameters.js';
import { evaluate, type Resource } from '../model/resources.js';
import { bodyValue, exchangeView, type RunState } from '../run/state.js';
import { isLoopback } from '../transport/target.js';

const objectKey = (container: Resource, name: string) => `${container.id} ${name}`;

/**
 * Where an operation names an object of a site (getObjectAcl's `name`), and whether a name is
 * one this run did not write: what the run did not write is never changed, nor read.
 */
export function objectNamed(s: RunState, op: Operation, container: Resource | undefined) {
  const site = s.stateful ? s.sites.find((x) => objectReference(op, x)) : undefined;
  return {
    where: site && objectReference(op, site),
    field: site?.field ?? '',
    absent: (name: unknown) => typeof name === 'string' && !s.book.has(container, name),
    why: (name: unknown) => `it addresses the object "${String(name)}", which this run did not write${container && s.unwritten.has(objectKey(container, String(name))) ? `: ${s.unwritten.get(objectKey(container, String(name)))}` : ''}`,
  };
}

/** Writes, through a PUT URL, each object the selected operations name, in the container they address, before they run. */
export async function placeObjects(s: RunState): Promise<void> {
  if (!s.safety.writes) return;
  for (const site of s.sites) {
    for (const op of s.selected) {
      const where = objectReference(op, site);
      const { owner } = s.registry.bind(op);
      if (!where || !owner) continue;
      const parameter = op.parameters.find((p) => p.in === 'query' && p.name === site.field);
      const names = where === 'query' ? [parameterExamples(s.document, parameter!, s.resolve).find((v) => s.fits(parameter!, v))] : (op.body?.examples ?? []).map((e) => (e.value as Record<string, unknown>)?.[site.field]);
      for (const name of new Set(names)) {
        if (typeof name !== 'string' || s.book.has(owner, name) || s.unwritten.has(objectKey(owner, name))) continue;
        const why = await writeObject(site, owner, name, urlTools(s, s.setup, 'setup'), s.book, s.validBody(site.op), s.namer.tag);
        if (why) s.unwritten.set(objectKey(owner, name), why);
      }
    }
  }
}

/** Removes what the run wrote in a container, so that its delete finds it empty. */
export async function emptyContainer(s: RunState, container: Resource, into: RequestRecord[], cleanup = false): Promise<void> {
  for (const site of s.sites.filter((x) => x.containerPath === container.kind.itemPath)) {
    const left = await removeObjects(site, container, s.book.in(container), urlTools(s, into, cleanup ? 'cleanup' : 'setup', cleanup), s.book, s.validBody(site.op));
    if (left.length) s.notes.push(`${s.registry.describe(container)} still holds what the run wrote, so its delete may be refused: ${left.join('; ')}`);
  }
}

/** A URL is used where the run may write: on the target's host, on a loopback address, or anywhere with --allow-writes. */
async function urlAllowed(s: RunState, url: string): Promise<boolean> {
  return Boolean(s.options.allowWrites) || new URL(url).host === new URL(s.baseUrl).host || (!s.options.remote && await isLoopback(url));
}

export function urlTools(s: RunState, into: RequestRecord[], kind: RequestKind, cleanup = false): UrlTools {
  return {
    async make(site, container, body, label) {
      const { params, missing } = await paramsFor(s, site.op, into, container);
      if (missing) return { why: missing };
      const sent = await exchange(s, site.op, into, label, kind, { params, body: bodyValue(site.op.body, body), auth: s.authFor(site.op) }, () => [], { settle: true, cleanup, probe: true });
      if (!is2xx(sent.answer.status)) return { why: `${site.op.id} answered ${describeAnswer(sent.answer)}` };
      if (s.dry) return { url: `<URL made by ${site.op.id}>` };
      const url = evaluate(site.op.presigned!.url, exchangeView(params, body, sent.answer));
      if (typeof url !== 'string' || !URL.canParse(url, `${s.baseUrl}/`)) return { why: `its answer holds no URL where x-presigned-url says (${JSON.stringify(site.op.presigned!.url)})` };
      const absolute = new URL(url, `${s.baseUrl}/`).toString();
      if (!await urlAllowed(s, absolute)) return { why: `the URL leads to ${new URL(absolute).host}, not to the target: --allow-writes uses it`, skip: true };
      return { url: absolute };
    },
    use: (use, label, judge) => useUrl(s, use, into, label, kind, judge, cleanup),
    record: (label, checks) => { into.push({ label, kind, checks }); },
  };
}
