// The parity suite's scenarios, derived from the bundle rather than written per operation: every
// list read while empty; every create with its request example, then what its OpenAPI links
// reach on the new object (reads, updates, child creates, actions), its list with and without an
// X-Filter, and at the end its delete; the refusals the rules make (an unknown region, a missing
// or unknown token, an id that does not exist, a path or method the API has not); every other
// operation once with the spec's examples; and a list of several pages. Each step goes to both
// targets through `send`, which answers with the reference server's answer (the ids later steps use).
import { operationViews } from '@cloudapi/spec/bundle';
import type { OperationView } from '@cloudapi/spec/bundle';
import { filterSpecs } from '@cloudapi/spec/filters';
import { mediaExamples, parameterExamples } from '@cloudapi/spec/walk';
import type { Answer } from './compare.js';

export interface Step {
  /** What the step does, with its operationId first (the README's differences table names it so). */
  key: string;
  method: string;
  /** Path under the base URL, its parameters filled in (percent-encoded). */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  /** A multipart form instead: each part's file name and content. */
  form?: Record<string, { fileName: string; content: string }>;
  /** `null`: no Authorization header; a string: that token instead of the suite's. */
  token?: string | null;
}

export type Send = (step: Step) => Promise<Answer>;

type Params = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, any> => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** The value a link's runtime expression names: `$response.body#/id`, `$request.path.domainId`. */
function resolveExpression(expression: string, requestParams: Params, body: unknown): unknown {
  const fromBody = /^\$response\.body#(.*)$/.exec(expression);
  if (fromBody) return fromBody[1]!.split('/').slice(1).reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], body);
  const fromPath = /^\$request\.path\.(.+)$/.exec(expression);
  return fromPath ? requestParams[fromPath[1]!] : undefined;
}

export class Scenarios {
  readonly ops: OperationView[];
  readonly byId: Map<string, OperationView>;
  /** Operations some step has sent a request to. */
  readonly covered = new Set<string>();
  private readonly deletes: Step[] = [];
  private readonly filters: Map<string, { fields: Record<string, { kind: string }> }>;

  constructor(private readonly document: any, private readonly send: Send) {
    this.ops = operationViews(document);
    this.byId = new Map(this.ops.map((op) => [op.operationId, op]));
    this.filters = filterSpecs(document) as never;
  }

  /** The path with its parameters: the given ones, else the spec's example of each. */
  pathOf(op: OperationView, params: Params = {}): string {
    return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const parameter = op.parameters.find((p) => p.in === 'path' && p.name === name)!;
      const value = params[name] ?? parameterExamples(this.document, parameter)[0];
      return encodeURIComponent(String(value));
    });
  }

  /** The first JSON example of the operation's request body. */
  bodyOf(op: OperationView): unknown {
    const media = this.resolve(op.operation.requestBody)?.content?.['application/json'];
    return media ? mediaExamples(this.document, media)[0]?.value : undefined;
  }

  /**
   * A multipart body from the operation's form example: each part a file whose content is the
   * example's text, named as the example says (`(binary contents of boot-console.png)`).
   */
  formOf(op: OperationView): Step['form'] {
    const media = this.resolve(op.operation.requestBody)?.content?.['multipart/form-data'];
    const example = media ? mediaExamples(this.document, media)[0]?.value : undefined;
    if (!isObject(example)) return undefined;
    return Object.fromEntries(Object.entries(example).map(([name, value]) => [name, { fileName: /contents of ([^)]+)\)/.exec(String(value))?.[1] ?? `${name}.txt`, content: String(value) }]));
  }

  private resolve(node: any): any {
    return node?.$ref ? node.$ref.split('/').slice(1).reduce((at: any, key: string) => at[key], this.document) : node;
  }

  /** The required query parameters' examples (a list's `page` and `page_size` have defaults). */
  queryOf(op: OperationView): Record<string, string> | undefined {
    const required = op.parameters.filter((p) => p.in === 'query' && p.required);
    if (!required.length) return undefined;
    return Object.fromEntries(required.map((p) => [p.name, String(parameterExamples(this.document, p)[0])]));
  }

  async call(op: OperationView, key: string, params: Params = {}, extra: Partial<Step> = {}): Promise<Answer> {
    this.covered.add(op.operationId);
    const body = op.requestBody ? this.bodyOf(op) : undefined;
    const form = op.requestBody && body === undefined ? this.formOf(op) : undefined;
    return this.send({ key: `${op.operationId} ${key}`, method: op.method.toUpperCase(), path: this.pathOf(op, params), query: this.queryOf(op), body, form, ...extra });
  }

  private linksOf(op: OperationView): [string, Record<string, string>][] {
    const links = this.resolve(op.operation.responses?.[String(op.success.status)])?.links ?? {};
    return Object.values<any>(links).map((link) => [link.operationId, link.parameters ?? {}]);
  }

  private isCreate = (op: OperationView) => op.method === 'post' && this.linksOf(op).length > 0;

  /** The list at a create's path, if the API has one. */
  listOf(create: OperationView): OperationView | undefined {
    return this.ops.find((op) => op.method === 'get' && op.path === create.path);
  }

  /** Reads every list and account-level object with nothing made yet. */
  async emptyReads(): Promise<void> {
    for (const op of this.ops.filter((o) => o.method === 'get' && !o.parameters.some((p) => p.in === 'path'))) await this.call(op, 'with nothing made');
  }

  /**
   * A create with its example, then what its links reach on the new object; deletes are kept for
   * the end. An example that names objects of the spec's world (`compute_id: 123`) is refused
   * for them: the create is tried again without those references.
   */
  async create(op: OperationView, params: Params = {}, depth = 0): Promise<void> {
    let made = await this.call(op, 'with its example', params);
    const example = this.bodyOf(op);
    if (made.status === 400 && isObject(example) && Object.keys(example).some((k) => /_id$/.test(k))) {
      const without = Object.fromEntries(Object.entries(example).filter(([k]) => !/_id$/.test(k)));
      made = await this.call(op, 'with its example, without its references', params, { body: without });
    }
    if (made.status !== 200 || !isObject(made.body)) return;
    const targets = this.linksOf(op).map(([operationId, expressions]) => ({
      target: this.byId.get(operationId)!,
      params: Object.fromEntries(Object.entries(expressions).map(([name, expression]) => [name, resolveExpression(expression, params, made.body)])),
    }));
    const order = (t: OperationView) => (t.method === 'get' ? 0 : t.method === 'put' ? 1 : this.isCreate(t) ? 2 : 3);
    for (const { target, params: linked } of targets.filter((t) => t.target.method !== 'delete').sort((a, b) => order(a.target) - order(b.target))) {
      if (this.isCreate(target)) {
        if (depth < 3) await this.create(target, linked, depth + 1);
      } else {
        await this.call(target, `on the object ${op.operationId} made`, linked);
      }
    }
    await this.listsAfter(op, params, made.body);
    for (const { target, params: linked } of targets.filter((t) => t.target.method === 'delete')) {
      this.deletes.push({ key: `${target.operationId} on the object ${op.operationId} made`, method: 'DELETE', path: this.pathOf(target, linked) });
      this.covered.add(target.operationId);
    }
  }

  /** The create's list: as it is, with an X-Filter matching the new object, and with one matching nothing. */
  private async listsAfter(create: OperationView, params: Params, made: Record<string, unknown>): Promise<void> {
    const list = this.listOf(create);
    if (!list) return;
    await this.call(list, `after ${create.operationId}`, params);
    const spec = this.filters.get(list.operationId);
    const field = spec && Object.entries(spec.fields).find(([name, f]) => ['text', 'integer'].includes(f.kind) && ['string', 'number'].includes(typeof made[name]));
    if (!field) return;
    const [name, { kind }] = field;
    await this.call(list, `X-Filter ${name} of the new object`, params, { headers: { 'x-filter': JSON.stringify({ [name]: made[name] }) } });
    await this.call(list, `X-Filter ${name} matching nothing`, params, { headers: { 'x-filter': JSON.stringify({ [name]: kind === 'text' ? 'no-such-value' : -1 }) } });
    await this.call(list, 'X-Filter on a field it does not take', params, { headers: { 'x-filter': '{"no_such_field": 1}' } });
  }

  /** Every create that needs no parent, with its links. */
  async creates(): Promise<void> {
    for (const op of this.ops.filter((o) => this.isCreate(o) && !o.parameters.some((p) => p.in === 'path'))) await this.create(op);
  }

  /** What the rules refuse: an unknown region, no token, an unknown token, an id nobody made. */
  async refusals(): Promise<void> {
    for (const op of this.ops.filter((o) => this.isCreate(o) && !o.parameters.some((p) => p.in === 'path'))) {
      const body = this.bodyOf(op);
      if (isObject(body) && 'region' in body) await this.call(op, 'in a region that does not exist', {}, { body: { ...body, region: 'mars-1' } });
    }
    const tags = new Set<string>();
    for (const op of this.ops.filter((o) => o.security.access === 'secured')) {
      if (tags.has(op.tags[0]!)) continue;
      tags.add(op.tags[0]!);
      await this.call(op, 'without a token', {}, { token: null });
      await this.call(op, 'with an unknown token', {}, { token: 'not-a-token-of-this-server' });
    }
    for (const op of this.ops.filter((o) => o.method === 'get' && o.parameters.some((p) => p.in === 'path' && /Id$/.test(p.name)))) {
      const ids = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, /Id$/.test(p.name) && (p.schema as any)?.type === 'integer' ? 999999 : undefined]));
      await this.call(op, 'on an id nobody made', ids);
    }
    await this.send({ key: 'unrouted path', method: 'GET', path: '/no-such-area' });
    await this.send({ key: 'unrouted method', method: 'DELETE', path: '/regions' });
  }

  /** Every operation no step has reached yet, once, with the spec's examples. */
  async rest(): Promise<void> {
    for (const op of this.ops.filter((o) => !this.covered.has(o.operationId) && o.method !== 'delete')) await this.call(op, 'with the spec\'s examples');
    for (const op of this.ops.filter((o) => !this.covered.has(o.operationId))) await this.call(op, 'with the spec\'s examples');
  }

  /** `count` objects of a create with a label, then its list's pages of 25. */
  async pages(create: OperationView, count: number): Promise<Answer> {
    const body = this.bodyOf(create) as Record<string, unknown>;
    for (let i = 0; i < count; i++) await this.call(create, 'for a list of pages', {}, { body: { ...body, label: `${String(body.label).slice(0, 20)}-p${i}` } });
    const list = this.listOf(create)!;
    await this.call(list, 'page 1 of 25', {}, { query: { page: '1', page_size: '25' } });
    return this.call(list, 'page 2 of 25', {}, { query: { page: '2', page_size: '25' } });
  }

  /** The deletes the creates' links named, the last made first. */
  async deleteAll(): Promise<void> {
    for (const step of this.deletes.reverse()) await this.send(step);
    this.deletes.length = 0;
  }
}
