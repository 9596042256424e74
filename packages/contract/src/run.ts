// Runs the contract against a target. The order is what a stateful implementation needs, read from
// the links: creates first (parents before children), each followed by a read and a walk of its
// list; then reads, updates (with the change read back) and actions on what was created; then
// account-wide destructive actions, 405 probes and walks of every list; then deletes, children
// first, each followed by a read (404) and a walk of its list (gone); last, clean-up of whatever
// the run created and did not delete. Every request of an operation is checked the same way.
import fc from 'fast-check';
import { basePathOf } from '@cloudapi/spec/bundle';
import { createSchemaViews, pointerGet, pointerOf, type SchemaViews } from '@cloudapi/spec/schema-views';
import { bodyArbitrary } from './arbitraries.js';
import { markInjected } from './traffic-headers.js';
import {
  type Check, type CheckContext, type TargetKind, checkAnswer, checkRefused, checkRejected, checkSuccess, describeAnswer,
  excerpt, fail, is2xx, pass, secretNamesOf, skip, successSchemaPointer, warn,
} from './checks.js';
import { eachReference, exampleIdsOf, Harvest, idSources, referenceOf } from './harvest.js';
import { type Answer, type OutgoingRequest, type Redact, send, toCurl, type TransportOptions } from './http.js';
import { isJsonMedia, loadDocument, modelOperations, type Operation, parameterExamples, pathParameterNames, valueAt } from './model.js';
import { checkUrls, ObjectBook, objectReference, objectSites, removeObjects, type UrlTools, type UrlUse, writeObject } from './objects.js';
import { type Auth, buildRequest, type BodyValue, type Params } from './requests.js';
import { FILTER_HEADER, filterSpecs as filterSpecsOf } from '@cloudapi/spec/filters';
import { filterChecks } from './filter-checks.js';
import { evaluate, type ExchangeView, keyMatch, type Resource, ResourceRegistry, resourceKinds, sameBindings } from './resources.js';
import { detectTarget, isLoopback, type Safety, safetyOf } from './target.js';
import { fullAccess, probesFor, type TokenEntry } from './tokens.js';
import { createNamer, UNIQUE_FIELDS } from './unique.js';
import { createVariantDeriver, type Variant } from './variants.js';

export const MOCK_TOKEN = 'contract-kit-mock-token';

export type RequestKind = 'positive' | 'negative' | 'auth' | 'scope' | 'sequence' | 'pagination' | 'method' | 'generated' | 'setup' | 'cleanup';

export interface RequestRecord {
  label: string;
  kind: RequestKind;
  method?: string;
  url?: string;
  status?: number | null;
  ms?: number;
  checks: Check[];
  curl?: string;
}

export interface OperationResult {
  operationId: string;
  method: string;
  path: string;
  tags: string[];
  security: string;
  requests: RequestRecord[];
  notes: string[];
  /** why the operation's success could not be proven without anything failing */
  unproven?: string;
  successValidated: boolean;
  tally: Record<'pass' | 'fail' | 'warn' | 'skip', number>;
}

export interface NotRun { check: string; reason: string }

export interface ContractOptions {
  baseUrl: string;
  /** token for valid requests (defaults to the full-access one of `tokens`) */
  token?: string;
  /** tokens with known scopes, grants and restrictions (the server's TOKENS_FILE format) */
  tokens?: TokenEntry[];
  target?: 'auto' | TargetKind;
  document?: any;
  spec?: string;
  /** operationIds, tags (area names) or `METHOD /path`s */
  only?: string[];
  skip?: string[];
  shard?: { index: number; count: number };
  undeclared?: 'warn' | 'fail' | 'off';
  negative?: boolean;
  /** generated requests per operation with a JSON body (fast-check) */
  examples?: number;
  seed?: number;
  timeoutMs?: number;
  maxBodyMb?: number;
  maxResponseMs?: number;
  deadlineMs?: number;
  allowWrites?: boolean;
  allowDestructive?: boolean;
  /** treat a loopback target as remote (a proxy in front of a real server): writes then need allowWrites */
  remote?: boolean;
  dryRun?: boolean;
  concurrency?: number;
  /** consecutive requests without an answer after which the target counts as unusable */
  maxTransportFailures?: number;
  /** how long a valid request refused for the resource's state (a 400 naming no field) is retried */
  settleMs?: number;
  /** how long an operation waits for what it acts on to leave a transitional status (provisioning, booting...) */
  settleTimeoutMs?: number;
  /** retries of a 429, each after its Retry-After (capped by maxRetryAfterMs) */
  maxRetries?: number;
  maxRetryAfterMs?: number;
  signal?: AbortSignal;
  /** one line per operation as it finishes */
  onProgress?: (line: string) => void;
}

export interface ContractResult {
  api: string;
  baseUrl: string;
  target: TargetKind | null;
  detection: string;
  safety?: Safety;
  token: string;
  notes: string[];
  /** what the kit suspects went wrong with the run itself (a base URL without the base path) */
  hints?: string[];
  notRun: NotRun[];
  operations: OperationResult[];
  setup: RequestRecord[];
  /** removed: what clean-up deleted; removedAfterCheck: what checks made on the way, deleted right after them */
  cleanup: { removed: string[]; leftBehind: { resource: string; reason: string }[]; removedAfterCheck: string[] };
  dryRun: boolean;
  planned: string[];
  seed: number;
  shard?: { index: number; count: number };
  abort?: string;
  coverage: { selected: number; total: number; exercised: number; successValidated: number; unproven: number };
  tally: Record<'pass' | 'fail' | 'warn' | 'skip', number>;
  slowest?: { operationId: string; label: string; ms: number };
  durationMs: number;
  exitCode: 0 | 1 | 2;
  ok: boolean;
}

class Stop extends Error {}

// An action that undoes another (detach after attach, shut down after boot) runs after the
// other actions, so that it finds something to undo; when the other could not be run, there is
// nothing to undo and the action is not proven rather than failed.
const UNDOING = /^(detach|shutDown|disable|unassign|remove)/;
// Actions that replace what an object holds: its children made before are gone afterwards.
const REPLACING = /^(restore|rebuild)/;
const OPPOSITE: Record<string, string> = { detach: 'attach', shutDown: 'boot', disable: 'enable', unassign: 'assign', remove: 'add' };

/**
 * A status the resource leaves by itself (provisioning, booting, creating, resizing, pending):
 * a present participle, except "running", where an instance has settled.
 */
export const isTransitional = (status: unknown): boolean => typeof status === 'string' && /ing$/.test(status) && status !== 'running';

const deepEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

function matchesFilter(op: Operation, list: string[]): boolean {
  return list.some((entry) => entry === op.id || op.tags.includes(entry) || entry.toLowerCase() === `${op.method} ${op.path}`.toLowerCase());
}

/** The operations a run checks: --only and --skip (areas, operationIds, `METHOD /path`), then its --shard. */
export function selectOperations(ops: Operation[], options: Pick<ContractOptions, 'only' | 'skip' | 'shard'>): Operation[] {
  const chosen = ops.filter((op) => (!options.only?.length || matchesFilter(op, options.only)) && !(options.skip?.length && matchesFilter(op, options.skip)));
  if (!options.shard) return chosen;
  const order = [...chosen].sort((a, b) => a.id.localeCompare(b.id));
  return chosen.filter((op) => order.indexOf(op) % options.shard!.count === options.shard!.index - 1);
}

async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.max(1, Math.min(size, items.length)) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(runners);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfterMs(answer: Answer, cap: number): number {
  const raw = answer.headers['retry-after'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return Math.min(1000, cap);
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Math.max(0, Math.min(Number.isFinite(ms) ? ms : 1000, cap));
}

/** The readOnly property names of an object schema (through allOf), which a client cannot set. */
function readOnlyNames(views: SchemaViews, pointer: string | null): Set<string> {
  const names = new Set<string>();
  if (!pointer) return names;
  const visit = (node: any, depth: number) => {
    const s = views.resolve(node);
    if (!s || typeof s !== 'object' || depth > 8) return;
    for (const [name, p] of Object.entries<any>(s.properties || {})) if (p?.readOnly || views.resolve(p)?.readOnly) names.add(name);
    for (const part of s.allOf || []) visit(part, depth + 1);
  };
  visit(views.schemaAt(pointer), 0);
  return names;
}

// Compiled validators are kept per document, so repeated runs (tests, the Vitest entry) reuse them.
const tools = new WeakMap<object, { views: SchemaViews; deriver: ReturnType<typeof createVariantDeriver> }>();
function toolsFor(document: any) {
  if (!tools.has(document)) {
    const views = createSchemaViews(document);
    tools.set(document, { views, deriver: createVariantDeriver(views) });
  }
  return tools.get(document)!;
}

export async function runContract(options: ContractOptions): Promise<ContractResult> {
  const started = performance.now();
  const document = options.document ?? loadDocument(options.spec);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const { views, deriver } = toolsFor(document);
  const serverPath = basePathOf(document);
  const resolve = (node: any) => views.resolve(node);
  const transport: TransportOptions = { timeoutMs: options.timeoutMs ?? 15_000, maxBodyBytes: Math.round((options.maxBodyMb ?? 32) * 1024 * 1024) };
  const deadline = Date.now() + (options.deadlineMs ?? 15 * 60_000);
  const seed = options.seed ?? (Date.now() % 2 ** 31);
  const dry = Boolean(options.dryRun);
  const ops = modelOperations(document, resolve);
  const byId = new Map(ops.map((op) => [op.id, op]));
  const kinds = resourceKinds(ops);
  const registry = new ResourceRegistry(kinds, byId);
  // Objects written through URLs the target hands out (x-presigned-url), and why one could not be.
  const sites = objectSites(ops, views);
  const book = new ObjectBook();
  const unwritten = new Map<string, string>();
  // Ids the target names in its answers that no operation creates (disks): the registry tracks the rest.
  const harvest = new Harvest((key) => !registry.creatable(key), exampleIdsOf(ops));
  const notes: string[] = [];
  const notRun: NotRun[] = [];
  const planned: string[] = [];
  const setup: RequestRecord[] = [];
  const results = new Map<Operation, OperationResult>();
  let abort: string | undefined;
  let transportFailures = 0;
  const streaks = new Map<string, number>();
  let rateLimitedInARow = 0;

  const selected = selectOperations(ops, options);
  for (const op of selected) {
    results.set(op, { operationId: op.id, method: op.method.toUpperCase(), path: op.path, tags: op.tags, security: op.security, requests: [], notes: [], successValidated: false, tally: { pass: 0, fail: 0, warn: 0, skip: 0 } });
  }
  const base = {
    api: `${document.info?.title ?? 'API'} ${document.info?.version ?? ''}`.trim(), baseUrl, notes, notRun, setup, planned, seed, shard: options.shard, dryRun: dry,
  };

  // The target.
  let detection = { target: options.target as TargetKind | null, reason: 'chosen with --target' };
  if (!options.target || options.target === 'auto') detection = await detectTarget(baseUrl, transport);
  if (!detection.target) {
    return finish({ ...base, target: null, detection: detection.reason, token: 'not used', abort: `the target could not be reached: ${detection.reason}` });
  }
  const target = detection.target;
  const safety = safetyOf(target, !options.remote && await isLoopback(baseUrl), Boolean(options.allowWrites), Boolean(options.allowDestructive));
  const tokens = options.tokens ?? [];
  // A dry run lists requests with a placeholder where the token goes.
  const mainToken = options.token ?? tokens.find(fullAccess)?.token ?? (target === 'mock' ? MOCK_TOKEN : dry ? 'dry-run-token' : undefined);
  // Tokens never reach a report: the main one reads $TOKEN, those of --tokens $TOKEN_1, $TOKEN_2…
  const secrets: [string, string][] = [...(mainToken ? [[mainToken, '$TOKEN'] as [string, string]] : []), ...tokens.filter((t) => t.token !== mainToken).map((t, i) => [t.token, `$TOKEN_${i + 1}`] as [string, string])];
  const redact: Redact = (text) => secrets.reduce((out, [secret, name]) => out.split(secret).join(name), text);
  const tokenNote = options.token ? 'given with --token' : tokens.find(fullAccess) ? 'the full-access token of --tokens' : target === 'mock' ? 'none given; a placeholder is sent to the mock' : 'none given: secured operations cannot be proven';
  const ctx: CheckContext = {
    document, views, target, undeclared: options.undeclared ?? 'warn', maxResponseMs: options.maxResponseMs, secretNames: secretNamesOf(document),
    errorSchemaPointer: document.components?.schemas?.ErrorResponse ? pointerOf('components', 'schemas', 'ErrorResponse') : null,
  };
  const stateful = target === 'implementation';
  const namer = createNamer();
  const unsettled = new Set<Resource>();
  const knownStatus = new Map<Resource, unknown>();
  if (stateful) notes.push(`what the run creates is named with its tag ${namer.tag} (labels and domain names unique per run)`);
  const settleMs = options.settleMs ?? (stateful ? 5000 : 0);
  if (serverPath && !new URL(baseUrl).pathname.replace(/\/+$/, '').endsWith(serverPath)) {
    notes.push(`the base URL does not end in ${serverPath}, the base path of the spec's server URL; operation paths are appended to it as given`);
  }
  if (target === 'mock') {
    notRun.push({ check: 'stateful sequences (read after create, update read back, listed after create, 404 and unlisted after delete)', reason: 'the mock keeps no state' });
    notRun.push({ check: 'walking every page of a list', reason: 'the mock answers every page with the same example' });
    notRun.push({ check: 'scope, grant and restricted-user checks (403)', reason: 'the mock checks no scopes' });
    notRun.push({ check: '401 for an unknown token, 401 for two Authorization headers', reason: 'the mock accepts any bearer token' });
    if (sites.length) notRun.push({ check: 'pre-signed URLs used (an upload, read back, refused with another Content-Type, removed)', reason: 'the mock hands out example URLs that lead nowhere' });
  } else if (!tokens.length) {
    notRun.push({ check: 'scope, grant and restricted-user checks (403)', reason: 'no --tokens file: the kit knows no token with fewer rights' });
  }
  if (!options.examples) notRun.push({ check: 'generated requests (fast-check)', reason: '--examples 0' });

  const outOfTime = () => {
    if (options.signal?.aborted) abort ??= 'interrupted (Ctrl-C): stopped sending, cleaned up';
    else if (Date.now() > deadline) abort ??= `the deadline of ${Math.round((options.deadlineMs ?? 900_000) / 1000)} s was reached (--deadline)`;
    return abort !== undefined;
  };

  // ---- one exchange -------------------------------------------------------------------------
  interface Sent { answer: Answer; request: RequestRecord; dry?: boolean }
  async function exchange(schemaOp: Operation, into: RequestRecord[], label: string, kind: RequestKind, input: { params: Params; body?: BodyValue | null; auth: Auth }, extra: (a: Answer) => Check[], { cleanup = false, settle = false, probe = false } = {}): Promise<Sent> {
    if (!cleanup && outOfTime()) throw new Stop();
    const request = await buildRequest({ baseUrl, method: schemaOp.method, path: schemaOp.path, params: input.params, body: input.body, auth: input.auth });
    if (dry) {
      const line = `${request.method} ${decodeURIComponent(request.url)}${request.headers.filter(([n]) => n === 'authorization').map(([, v]) => `  [authorization: ${redact(v)}]`).join('')}${request.body?.length ? `  ${excerpt(request.body.toString('utf8'), 200)}` : ''}  (${label})`;
      planned.push(line);
      const record: RequestRecord = { label, kind, method: request.method, url: request.url, status: null, checks: [] };
      into.push(record);
      return { answer: dryAnswer(schemaOp), request: record, dry: true };
    }
    // An operation that gave no usable answer twice in a row is not asked again: a hang costs a
    // timeout each time, and one broken operation does not make the target unusable.
    if (!cleanup && (streaks.get(schemaOp.id) ?? 0) >= 2) {
      const record: RequestRecord = { label, kind, method: request.method, url: request.url, status: null, checks: [skip('not sent', `${schemaOp.id} gave no usable answer twice in a row`)] };
      into.push(record);
      return { answer: { headers: {}, mediaType: '', text: '', ms: 0, bytes: 0, error: 'not sent' }, request: record };
    }
    let answer: Answer;
    let retries = 0;
    const settleUntil = Date.now() + (settle ? settleMs : 0);
    for (let pause = 200; ; pause = Math.min(pause * 2, 2000)) {
      answer = await send(request, transport);
      if (answer.status === 429 && retries < (options.maxRetries ?? 3) && rateLimitedInARow < 20 && !outOfTime()) {
        retries++;
        await sleep(retryAfterMs(answer, options.maxRetryAfterMs ?? 10_000));
        continue;
      }
      const stateRefusal = answer.status === 400 && !(answer.json as any)?.errors?.some?.((e: any) => e?.field);
      if (settle && stateRefusal && Date.now() + pause < settleUntil && !outOfTime()) { await sleep(pause); continue; }
      break;
    }
    answer.retries = retries;
    rateLimitedInARow = answer.status === 429 ? rateLimitedInARow + 1 : 0;
    if (rateLimitedInARow === 20) notes.push('20 requests in a row were refused with 429 even after waiting their Retry-After: the kit stopped retrying');
    const record: RequestRecord = { label, kind, method: request.method, url: request.url, status: answer.status ?? null, ms: Math.round(answer.ms), checks: markInjected([...checkAnswer(ctx, schemaOp, answer), ...extra(answer)], answer) };
    if (record.checks.some((c) => c.outcome === 'fail')) record.curl = toCurl(request, redact);
    into.push(record);
    if (stateful && is2xx(answer.status) && answer.json !== undefined) harvest.record(answer.json, input.params.path);
    const unusable = answer.error !== undefined;
    transportFailures = unusable ? transportFailures + 1 : 0;
    // A probe of the kit's own (is it still there?) neither counts nor clears an operation's streak.
    if (!probe) streaks.set(schemaOp.id, unusable ? (streaks.get(schemaOp.id) ?? 0) + 1 : 0);
    if (transportFailures >= (options.maxTransportFailures ?? 5) && !cleanup) {
      abort ??= `the target is unusable: ${transportFailures} requests in a row got no usable answer (last: ${request.method} ${request.url}: ${answer.error})`;
      throw new Stop();
    }
    return { answer, request: record };
  }

  function dryAnswer(op: Operation): Answer {
    const pointer = successSchemaPointer(document, op);
    const media = pointer ? pointerGet(document, pointer.replace(/\/schema$/, '')) : undefined;
    const example = media?.examples ? Object.values<any>(media.examples)[0] : undefined;
    const value = example?.$ref ? pointerGet(document, example.$ref)?.value : example?.value ?? media?.example;
    const code = Number(Object.keys(op.raw.responses || {}).find((c) => /^2/.test(c)) ?? 200);
    return { status: code, headers: {}, mediaType: 'application/json', text: '', json: value, ms: 0, bytes: 0 };
  }

  const exchangeView = (params: Params, body: unknown, answer: Answer): ExchangeView => ({
    request: { path: params.path, query: params.query, headers: {}, body },
    response: { body: answer.json, headers: answer.headers },
  });

  /** Records what a 2xx of a create made (any request, even one that should have been refused). */
  function noteCreated(op: Operation, params: Params, body: unknown, sent: Sent, result?: OperationResult): Resource | undefined {
    if (!op.links.length || !is2xx(sent.answer.status)) return undefined;
    const resource = registry.record(op, exchangeView(params, body, sent.answer));
    if (resource && sent.dry) {
      for (const p of resource.kind.keyParams) {
        const placeholder = `<${p} made by ${op.id}>`;
        resource.bindings[p] = placeholder;
        for (const values of resource.perTarget.values()) if (p in values) values[p] = placeholder;
      }
    }
    if (resource) {
      const holder = valueAt(sent.answer.json, Object.values(resource.kind.keyPointers)[0]!.split('/').slice(0, -1).join('/'));
      knownStatus.set(resource, isObject(holder) ? holder.status : undefined);
    }
    if (!resource && registry.kindOf(op) && !sent.dry) result?.notes.push(`a ${sent.answer.status} of ${op.id} gave no key where its links point (${Object.values(registry.kindOf(op)!.keyPointers).join(', ')}): what it made cannot be cleaned up`);
    return resource;
  }

  /**
   * What a 2xx of a check did (a generated request, or a probe that should have been refused): a
   * create made something, deleted right after (discard); a delete removed its resource.
   */
  async function noteEffects(op: Operation, prepared: Prepared, body: unknown, sent: Sent, result?: OperationResult): Promise<void> {
    const made = noteCreated(op, prepared.params, body, sent, result);
    const owner = prepared.owner;
    if (op.method === 'delete' && is2xx(sent.answer.status) && owner?.alive && owner.kind.remove === op.id && !sent.dry) registry.removed(owner);
    await discard(made);
  }

  // What checks made on the way and the run deleted right after them.
  const removedAfterCheck: string[] = [];

  /** Deletes what the run made, emptied first of the objects the run wrote in it; why it could not, if so (a 404 counts as gone). */
  async function removeResource(resource: Resource, label: string, cleanup: boolean): Promise<string | undefined> {
    const remove = resource.kind.remove ? byId.get(resource.kind.remove) : undefined;
    if (!remove) return 'no operation deletes it (no DELETE among its links)';
    if (book.in(resource).length) await emptyContainer(resource, setup, cleanup);
    const params: Params = { path: { ...(resource.perTarget.get(remove.id) ?? resource.bindings) }, query: {}, header: {} };
    const { answer } = await exchange(remove, setup, label, 'cleanup', { params, auth: authFor(remove) }, () => [], { cleanup, settle: true });
    if (!is2xx(answer.status) && answer.status !== 404) return `${remove.id} answered ${describeAnswer(answer)}`;
    registry.removed(resource);
    return undefined;
  }

  /**
   * What a check made only on the way is deleted right after it, so the run's litter never
   * reaches a limit of the target (the volumes an instance may hold) that a later example needs.
   * What cannot be deleted now stays for the clean-up; an object the run already held (a create
   * that answered an existing one) is kept.
   */
  async function discard(resource: Resource | undefined): Promise<void> {
    if (!resource || !stateful || dry || !resource.kind.remove) return;
    const same = (r: Resource) => r !== resource && r.kind === resource.kind && sameBindings(r.bindings, resource.bindings, r.kind.keyParams);
    if (registry.alive().some(same)) return;
    if (!await removeResource(resource, `remove ${registry.describe(resource)}, made by a check`, false)) removedAfterCheck.push(registry.describe(resource));
  }

  const resultOf = (op: Operation): OperationResult | undefined => results.get(op);
  const recordsOf = (op: Operation): RequestRecord[] => resultOf(op)?.requests ?? setup;

  // ---- parameters and bodies ---------------------------------------------------------------
  const discovered = new Map<string, unknown>();
  const creatorsOf = (param: string) => [...kinds.values()].filter((k) => k.keyParams.includes(param)).flatMap((k) => k.creators);
  const whyNotCreated = (param: string): string => {
    const creators = creatorsOf(param);
    const states = creators.map((id) => {
      const op = byId.get(id)!;
      const r = results.get(op);
      if (!r && !needed.has(op)) return `${id} (not run)`;
      if (r?.unproven) return `${id} (not run: ${r.unproven})`;
      return `${id} (did not succeed)`;
    });
    return `needs a {${param}} this run created, and ${states.join(' or ') || 'no operation creates one'}`;
  };

  async function discover(op: Operation, name: string, into: RequestRecord[]): Promise<unknown> {
    const at = op.path.indexOf(`/{${name}}`);
    const listPath = op.path.slice(0, at);
    const key = `${listPath} ${name}`;
    if (discovered.has(key)) return discovered.get(key);
    const list = ops.find((o) => o.method === 'get' && o.path === listPath);
    let value: unknown;
    if (list && !pathParameterNames(listPath).length) {
      const { answer } = await exchange(list, into, `find a {${name}} in ${list.id}`, 'setup', { params: { path: {}, query: {}, header: {} }, auth: list.security === 'public' || !mainToken ? { kind: 'none' } : { kind: 'token', token: mainToken } }, () => []);
      const items = isObject(answer.json) && Array.isArray(answer.json.data) ? answer.json.data : Array.isArray(answer.json) ? answer.json : [];
      const first = items.find(isObject);
      if (first) value = [first[name], first.id, first[name.replace(/Id$/, '')]].find((v) => v !== undefined);
    }
    discovered.set(key, value);
    return value;
  }

  const fits = (parameter: { pointer: string }, value: unknown) => views.validate('request', `${parameter.pointer}/schema`, value).valid;

  /** The parameters of an operation, or why they cannot be had (ids this run does not own). */
  async function paramsFor(op: Operation, into: RequestRecord[], prefer?: Resource): Promise<{ params: Params; owner?: Resource; missing?: string }> {
    const params: Params = { path: {}, query: {}, header: {} };
    const { values, owner } = registry.bind(op, prefer);
    for (const parameter of op.parameters) {
      const where = parameter.in as keyof Params;
      if (!params[where]) continue;
      if (parameter.in === 'path') {
        let value = values[parameter.name];
        if (value === undefined) {
          // What this run did not create is never changed; reads of it are not attempted either,
          // so a failed create shows as the reason, not as a string of 404s.
          if (stateful && (op.writes || registry.creatable(parameter.name))) return { params, owner, missing: whyNotCreated(parameter.name) };
          if (stateful) value = await discover(op, parameter.name, into);
          if (value === undefined || !fits(parameter, value)) value = parameterExamples(document, parameter, resolve).find((v) => fits(parameter, v));
        }
        if (value === undefined) return { params, owner, missing: `no value for the path parameter {${parameter.name}}: give it an example` };
        // A path holds text: an id an answer gave as a number fits a parameter typed as a string.
        if (typeof value === 'number' && !fits(parameter, value) && fits(parameter, String(value))) value = String(value);
        params.path[parameter.name] = value;
        continue;
      }
      const hasExample = parameter.example !== undefined || parameter.examples !== undefined;
      if (!parameter.required && !hasExample) continue;
      const value = parameterExamples(document, parameter, resolve).find((v) => fits(parameter, v));
      if (value === undefined) {
        if (parameter.required) return { params, owner, missing: `no valid value for the ${parameter.in} parameter "${parameter.name}": give it an example` };
        continue;
      }
      params[where][parameter.name] = value;
    }
    return { params, owner };
  }

  const sourcesOf = idSources(ops, (o) => views.schemaAt(successSchemaPointer(document, o) ?? '#/none'), resolve);
  /** The kinds of ids an operation's body examples give that no operation creates but some read names. */
  const harvestedKeysOf = (op: Operation): string[] => {
    const keys = new Set<string>();
    for (const example of op.body?.examples ?? []) eachReference(example.value, (key) => { if (!registry.creatable(key) && sourcesOf(key).length) keys.add(key); });
    return [...keys];
  };

  /** Reads where the target names the ids the body refers to (the disks of the instance addressed), fresh before each operation that sends them. */
  async function discoverIds(op: Operation, chosen: Record<string, unknown>, into: RequestRecord[]): Promise<void> {
    if (dry) return;
    for (const key of harvestedKeysOf(op)) {
      // The read about what the request addresses first (the profiles of its instance), then any the run can address.
      const unknown = (source: Operation) => pathParameterNames(source.path).filter((n) => chosen[n] === undefined).length;
      for (const source of [...sourcesOf(key)].sort((a, b) => unknown(a) - unknown(b))) {
        const names = pathParameterNames(source.path);
        const { values } = registry.bind(source);
        const path = Object.fromEntries(names.map((n) => [n, chosen[n] ?? values[n]]));
        if (names.some((n) => path[n] === undefined)) continue;
        await exchange(source, into, `find the ${key}s the target names (${source.id})`, 'setup', { params: { path, query: {}, header: {} }, auth: authFor(source) }, () => [], { probe: true });
        break;
      }
    }
  }

  /**
   * A body with its references to other resources (`compute_id`, `volumes: [..]`) pointed at what
   * this run created. A reference to a kind the run could have created but did not is left out
   * when the body stays valid without it; otherwise the body cannot be sent.
   */
  function withReferences(op: Operation, value: unknown, chosen: Record<string, unknown>): { value: unknown; missing?: string } {
    if (target === 'mock' || !op.body) return { value };
    let missing: string | undefined;
    const picked = { ...chosen };
    const visit = (node: unknown, depth: number): unknown => {
      if (Array.isArray(node)) return node.map((item) => visit(item, depth + 1));
      if (!isObject(node) || depth > 6) return node;
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) {
        const param = referenceOf(key, child);
        const intArray = Array.isArray(child);
        if (param && registry.creatable(param)) {
          const resource = registry.referenceFor(param, picked);
          if (resource) {
            picked[param] = resource.bindings[param];
            for (const [k, v] of Object.entries(resource.bindings)) picked[k] ??= v;
            out[key] = intArray ? [resource.bindings[param]] : resource.bindings[param];
          } else {
            missing ??= `its body refers to ${key}: ${whyNotCreated(param)}`;
          }
          continue;
        }
        const named = param ? harvest.standIn(param, child as number | number[], picked) : undefined;
        out[key] = named ?? visit(child, depth + 1);
      }
      return out;
    };
    const replaced = visit(value, 0);
    if (missing && !views.validate('request', op.body.schemaPointer, replaced).valid) return { value: replaced, missing };
    return { value: replaced };
  }

  const authFor = (op: Operation): Auth => (op.security === 'public' || !mainToken ? { kind: 'none' } : { kind: 'token', token: mainToken });

  // ---- objects written through URLs the target hands out (x-presigned-url) -----------------
  const validBody = (op: Operation) => (body: unknown) => views.validate('request', op.body!.schemaPointer, body).valid;
  const objectKey = (container: Resource, name: string) => `${container.id} ${name}`;

  /**
   * Where an operation names an object of a site (getObjectAcl's `name`), and whether a name is
   * one this run did not write: what the run did not write is never changed, nor read.
   */
  function objectNamed(op: Operation, container: Resource | undefined) {
    const site = stateful ? sites.find((s) => objectReference(op, s)) : undefined;
    return {
      where: site && objectReference(op, site),
      field: site?.field ?? '',
      absent: (name: unknown) => typeof name === 'string' && !book.has(container, name),
      why: (name: unknown) => `it addresses the object "${String(name)}", which this run did not write${container && unwritten.has(objectKey(container, String(name))) ? `: ${unwritten.get(objectKey(container, String(name)))}` : ''}`,
    };
  }

  /** Writes, through a PUT URL, each object the selected operations name, in the container they address, before they run. */
  async function placeObjects(): Promise<void> {
    if (!safety.writes) return;
    for (const site of sites) {
      for (const op of selected) {
        const where = objectReference(op, site);
        const { owner } = registry.bind(op);
        if (!where || !owner) continue;
        const parameter = op.parameters.find((p) => p.in === 'query' && p.name === site.field);
        const names = where === 'query' ? [parameterExamples(document, parameter!, resolve).find((v) => fits(parameter!, v))] : (op.body?.examples ?? []).map((e) => (e.value as Record<string, unknown>)?.[site.field]);
        for (const name of new Set(names)) {
          if (typeof name !== 'string' || book.has(owner, name) || unwritten.has(objectKey(owner, name))) continue;
          const why = await writeObject(site, owner, name, urlTools(setup, 'setup'), book, validBody(site.op), namer.tag);
          if (why) unwritten.set(objectKey(owner, name), why);
        }
      }
    }
  }

  /** Removes what the run wrote in a container, so that its delete finds it empty. */
  async function emptyContainer(container: Resource, into: RequestRecord[], cleanup = false): Promise<void> {
    for (const site of sites.filter((s) => s.containerPath === container.kind.itemPath)) {
      const left = await removeObjects(site, container, book.in(container), urlTools(into, cleanup ? 'cleanup' : 'setup', cleanup), book, validBody(site.op));
      if (left.length) notes.push(`${registry.describe(container)} still holds what the run wrote, so its delete may be refused: ${left.join('; ')}`);
    }
  }

  // A URL is used where the run may write: on the target's host, on a loopback address, or anywhere with --allow-writes.
  const targetHost = new URL(baseUrl).host;
  const urlAllowed = async (url: string) => Boolean(options.allowWrites) || new URL(url).host === targetHost || (!options.remote && await isLoopback(url));

  function urlTools(into: RequestRecord[], kind: RequestKind, cleanup = false): UrlTools {
    return {
      async make(site, container, body, label) {
        const { params, missing } = await paramsFor(site.op, into, container);
        if (missing) return { why: missing };
        const sent = await exchange(site.op, into, label, kind, { params, body: bodyValue(site.op.body, body), auth: authFor(site.op) }, () => [], { settle: true, cleanup, probe: true });
        if (!is2xx(sent.answer.status)) return { why: `${site.op.id} answered ${describeAnswer(sent.answer)}` };
        if (dry) return { url: `<URL made by ${site.op.id}>` };
        const url = evaluate(site.op.presigned!.url, exchangeView(params, body, sent.answer));
        if (typeof url !== 'string' || !URL.canParse(url, `${baseUrl}/`)) return { why: `its answer holds no URL where x-presigned-url says (${JSON.stringify(site.op.presigned!.url)})` };
        const absolute = new URL(url, `${baseUrl}/`).toString();
        if (!await urlAllowed(absolute)) return { why: `the URL leads to ${new URL(absolute).host}, not to the target: --allow-writes uses it`, skip: true };
        return { url: absolute };
      },
      use: (use, label, judge) => useUrl(use, into, label, kind, judge, cleanup),
      record: (label, checks) => { into.push({ label, kind, checks }); },
    };
  }

  /** One request through a URL the target handed out: no token, the Content-Type it was made for. */
  async function useUrl(use: UrlUse, into: RequestRecord[], label: string, kind: RequestKind, judge: (answer: Answer) => Check[], cleanup: boolean): Promise<Answer> {
    if (!cleanup && outOfTime()) throw new Stop();
    const request: OutgoingRequest = {
      method: use.method, url: use.url, headers: [['accept', '*/*'], ...(use.contentType ? [['content-type', use.contentType] as [string, string]] : [])],
      body: use.payload === undefined ? undefined : Buffer.from(use.payload),
    };
    if (dry) {
      planned.push(`${use.method} ${use.url}${use.contentType ? `  [content-type: ${use.contentType}]` : ''}  (${label})`);
      into.push({ label, kind, method: use.method, url: use.url, status: null, checks: [] });
      return { status: 200, headers: {}, mediaType: '', text: use.payload ?? '', ms: 0, bytes: 0 };
    }
    const answer = await send(request, transport);
    const checks = judge(answer);
    into.push({ label, kind, method: use.method, url: use.url, status: answer.status ?? null, ms: Math.round(answer.ms), checks, curl: checks.some((c) => c.outcome === 'fail') ? toCurl(request, redact) : undefined });
    return answer;
  }

  // ---- the checks of one operation ---------------------------------------------------------
  /** A request body example; `renamed`: the same with the run's names, sent when `value`'s names are taken. */
  interface ExampleBody { name: string; value: unknown; renamed?: unknown }
  interface Prepared { params: Params; owner?: Resource; bodies: ExampleBody[]; body: Operation['body'] }

  async function prepare(op: Operation, into: RequestRecord[], prefer?: Resource): Promise<Prepared | string> {
    if (op.writes && !safety.writes) return 'it changes state, and the target is neither the mock nor a loopback address: --allow-writes runs it';
    if (op.security === 'secured' && !mainToken) return 'it needs a token: give --token or a --tokens file with a full-access token';
    const { params, owner, missing } = await paramsFor(op, into, prefer);
    if (missing) return missing;
    const destroys = op.destructive && !safety.destructive ? await destroysOthers(op, params, into) : undefined;
    if (destroys) return destroys;
    const body = op.body;
    let bodies: ExampleBody[] = [];
    const object = objectNamed(op, owner);
    if (object.where === 'query' && object.absent(params.query[object.field])) return object.why(params.query[object.field]);
    if (body) {
      const valid = body.examples.filter((e) => views.validate('request', body.schemaPointer, e.value).valid);
      if (body.required && !valid.length) return `no valid request body example for ${body.mediaType}: give the request body a named example`;
      if (stateful) await discoverIds(op, { ...(owner?.bindings ?? {}), ...params.path }, into);
      const reasons: string[] = [];
      for (const example of valid) {
        const r = withReferences(op, example.value, { ...(owner?.bindings ?? {}), ...params.path });
        if (r.missing) { reasons.push(r.missing); continue; }
        // What a create makes is named as the example says; if that name is taken (what an earlier
        // run, or another area's example, made), it is sent again with a name of this run.
        const renamed = stateful && registry.kindOf(op) ? namer.rename(r.value, (c) => views.validate('request', body.schemaPointer, c).valid) : r.value;
        bodies.push({ name: example.name, value: r.value, ...(renamed !== r.value ? { renamed } : {}) });
      }
      if (object.where === 'body') {
        const named = (b: ExampleBody) => (b.value as Record<string, unknown>)[object.field];
        reasons.push(...bodies.filter((b) => object.absent(named(b))).map((b) => object.why(named(b))));
        bodies = bodies.filter((b) => !object.absent(named(b)));
      }
      if (!bodies.length && body.required) return reasons[0] ?? 'no request body could be built';
      if (!bodies.length) bodies = [];
    }
    return { params, owner, bodies, body };
  }

  /**
   * Without --allow-destructive (and off the mock) a destructive action runs only where it
   * destroys nothing but what this run created: one object the run made, or, for an account-wide
   * one (run after the deletes), an account whose lists of its area's objects hold only what the
   * run made. A list of what no operation creates (clusters, regions) is the service's catalogue,
   * not the account's objects. Why it may not run, or undefined.
   */
  async function destroysOthers(op: Operation, params: Params, into: RequestRecord[]): Promise<string | undefined> {
    const names = pathParameterNames(op.path);
    if (names.length) {
      const own = registry.alive().some((r) => sameBindings(r.bindings, params.path, names));
      return own ? undefined : 'a destructive action on an object this run did not create: --allow-destructive runs it';
    }
    const lists = ops.filter((o) => o.list && !pathParameterNames(o.path).length && o.tags.some((t) => op.tags.includes(t)))
      .flatMap((list) => [...kinds.values()].filter((k) => k.list === list.id).map((kind) => ({ list, kind })));
    if (!lists.length) return 'an account-wide destructive action, and no list of its area shows what it would destroy: --allow-destructive runs it';
    let others = 0;
    const holding: string[] = [];
    for (const { list, kind } of lists) {
      const walked = await walk(list, {}, into, `before ${op.id}, what ${list.id} holds`);
      if (dry) continue;
      if (!walked?.complete) return `an account-wide destructive action, and ${list.id} could not be read to its end: --allow-destructive runs it`;
      const foreign = walked.items.filter((x) => !registry.made(kind, x.item)).length;
      if (foreign) { others += foreign; holding.push(list.id); }
    }
    return others ? `the account holds ${others} object${others === 1 ? '' : 's'} this run did not create (${holding.join(', ')}); --allow-destructive runs it` : undefined;
  }

  const bodyValue = (body: Operation['body'], value: unknown): BodyValue | null => (body ? { mediaType: body.mediaType, value, binaryFields: body.binaryFields, encoding: body.encoding } : null);

  async function validRequests(op: Operation, result: OperationResult, prepared: Prepared): Promise<Sent[]> {
    const sentList: Sent[] = [];
    const positives = prepared.bodies.length ? prepared.bodies : [null];
    for (const [i, example] of positives.entries()) {
      const label = example ? `valid request (example "${example.name}")` : 'valid request';
      // One success proves the operation; a later example refused with a 4xx may only conflict
      // with what an earlier one made (a null MX record after an MX record): a warning.
      const success = (a: Answer) => {
        const checks = checkSuccess(a, 'built from the spec\'s examples');
        return i > 0 && stateful && a.status !== undefined && a.status < 500 && !is2xx(a.status) && sentList.some((s) => is2xx(s.answer.status))
          ? checks.map((c) => ({ ...warn(c.name, `${c.reason}; an earlier example succeeded, and the examples may conflict under the service's rules`) })) : checks;
      };
      const checks = (a: Answer) => [...success(a), ...pageChecks(op, a, prepared.params)];
      const send = (value: unknown, as: string, judge: (a: Answer) => Check[]) => exchange(op, result.requests, as, 'positive',
        { params: prepared.params, body: example && bodyValue(prepared.body, value), auth: authFor(op) }, judge, { settle: stateful && op.writes });
      let value = example?.value;
      let sent = await send(value, label, (a) => (example?.renamed !== undefined && nameTaken(a, example.value) ? [] : checks(a)));
      if (example?.renamed !== undefined && nameTaken(sent.answer, example.value)) {
        value = example.renamed;
        sent = await send(value, `${label}, with this run's names (the example's are taken)`, checks);
        example.value = value; // what later requests of this operation build on
      }
      noteCreated(op, prepared.params, value, sent, result);
      sentList.push(sent);
    }
    return sentList;
  }

  /** Whether a 400 refuses a name of `body` (a label or domain that exists) by naming its field. */
  function nameTaken(answer: Answer, body: unknown): boolean {
    if (answer.status !== 400 || !isObject(body)) return false;
    const fields = ((answer.json as any)?.errors ?? []).map((e: any) => e?.field);
    return UNIQUE_FIELDS.some((field) => typeof body[field] === 'string' && fields.includes(field));
  }

  async function negativeRequests(op: Operation, result: OperationResult, prepared: Prepared): Promise<void> {
    if (options.negative === false) return;
    const variants: (Variant & { location: string; parameter?: any })[] = [];
    const body = prepared.body;
    if (body && prepared.bodies.length) {
      for (const v of deriver.deriveVariants(body.schemaPointer, prepared.bodies.map((e) => e.value), { jsonBody: isJsonMedia(body.mediaType) })) variants.push({ ...v, location: 'body' });
    }
    for (const parameter of op.parameters) {
      if (!['path', 'query'].includes(parameter.in)) continue;
      const current = prepared.params[parameter.in as 'path' | 'query'][parameter.name];
      if (current === undefined) continue;
      for (const v of deriver.parameterVariants(`${parameter.pointer}/schema`, current, parameter.in)) {
        variants.push({ ...v, location: parameter.in, parameter, fields: [parameter.name], description: `${parameter.in} parameter ${parameter.name}: ${v.description}` });
      }
    }
    for (const variant of variants) {
      const params = variant.parameter ? { ...prepared.params, [variant.location]: { ...prepared.params[variant.location as 'path'], [variant.parameter.name]: variant.value } } : prepared.params;
      const value = variant.location === 'body' ? variant.value : prepared.bodies[0]?.value;
      const sent = await exchange(op, result.requests, `invalid: ${variant.description} [${variant.rule}]`, 'negative', { params, body: bodyValue(body, value), auth: authFor(op) }, (a) => checkRejected(ctx, variant, a));
      await noteEffects(op, { ...prepared, params }, value, sent, result);
    }
  }

  async function authRequests(op: Operation, result: OperationResult, prepared: Prepared): Promise<void> {
    if (op.security === 'public') { result.notes.push('public: sent without a token'); return; }
    const body = bodyValue(prepared.body, prepared.bodies[0]?.value);
    const unknown = `contract-unknown-${seed.toString(36)}-token`;
    const probes: { label: string; auth: Auth; expect: number | 'success' }[] = [];
    if (op.security === 'secured') probes.push({ label: '401 without a token', auth: { kind: 'none' }, expect: 401 });
    else result.notes.push('authentication optional: no 401 check without a token');
    probes.push({ label: '401 for "Bearer" without a token', auth: { kind: 'raw', lines: ['Bearer'] }, expect: 401 });
    probes.push({ label: '401 for a Basic credential', auth: { kind: 'raw', lines: ['Basic Y29udHJhY3Q6a2l0'] }, expect: 401 });
    if (target === 'implementation') {
      probes.push({ label: '401 for an unknown token', auth: { kind: 'token', token: unknown }, expect: 401 });
      if (mainToken) probes.push({ label: '401 for two Authorization headers', auth: { kind: 'raw', lines: [`Bearer ${mainToken}`, `Bearer ${unknown}`] }, expect: 401 });
    }
    if (mainToken && !op.writes) probes.push({ label: 'a lower-case "bearer" scheme is accepted', auth: { kind: 'token', token: mainToken, scheme: 'bearer' }, expect: 'success' });
    for (const probe of probes) {
      const sent = await exchange(op, result.requests, probe.label, 'auth', { params: prepared.params, body, auth: probe.auth },
        (a) => (probe.expect === 'success' ? checkSuccess(a, 'with the scheme written "bearer"').map((c) => ({ ...c, name: probe.label })) : checkRefused(probe.label, probe.expect, a, `to ${probe.label.replace(/^401 /, '').replace(/^for /, '')}`)));
      await noteEffects(op, prepared, prepared.bodies[0]?.value, sent, result);
    }
  }

  async function scopeRequests(op: Operation, result: OperationResult, prepared: Prepared): Promise<void> {
    if (!stateful || !tokens.length || op.security === 'public') return;
    const { probes, missing } = probesFor(op, tokens);
    if (missing.length) result.notes.push(`scope checks not run for want of ${missing.join('; ')} in --tokens`);
    for (const probe of probes) {
      let value = prepared.bodies[0]?.value;
      if (probe.withTags && isObject(value) && !('tags' in value)) {
        const withTags = { ...value, tags: ['contract-kit'] };
        if (op.body && views.validate('request', op.body.schemaPointer, withTags).valid) value = withTags;
      }
      const sent = await exchange(op, result.requests, probe.name, 'scope', { params: prepared.params, body: bodyValue(prepared.body, value), auth: { kind: 'token', token: probe.token.token } },
        (a) => (probe.expect === 'success' ? checkSuccess(a, `with a token whose scopes are "${probe.token.scopes}"`).map((c) => ({ ...c, name: probe.name })) : checkRefused(probe.name, 403, a, `to a token without ${probe.lacks}`)));
      await noteEffects(op, prepared, value, sent, result);
    }
  }

  async function generatedRequests(op: Operation, result: OperationResult, prepared: Prepared): Promise<void> {
    const runs = options.examples ?? 0;
    if (!runs || !op.body || !isJsonMedia(op.body.mediaType) || op.method === 'delete') return;
    const schema = pointerGet(document, op.body.schemaPointer);
    const arbitrary = bodyArbitrary(schema, prepared.bodies.map((b) => b.value), resolve);
    const records: RequestRecord[] = [];
    let sentCount = 0;
    const property = fc.asyncProperty(arbitrary, async (generated) => {
      const { value, missing } = withReferences(op, generated, { ...(prepared.owner?.bindings ?? {}), ...prepared.params.path });
      fc.pre(!missing && views.validate('request', op.body!.schemaPointer, value).valid);
      sentCount++;
      const sent = await exchange(op, records, 'generated request', 'generated', { params: prepared.params, body: bodyValue(op.body, value), auth: authFor(op) },
        (a) => (target === 'mock' ? checkSuccess(a, 'generated from the schema') : []));
      await noteEffects(op, prepared, value, sent, result);
      const failed = sent.request.checks.filter((c) => c.outcome === 'fail');
      if (failed.length) throw new Error(failed.map((c) => `${c.name}: ${c.reason}`).join('; '));
    });
    const outcome = await fc.check(property, { numRuns: runs, seed, interruptAfterTimeLimit: 60_000, maxSkipsPerRun: 20 });
    if (abort) throw new Stop();
    const last = records.at(-1);
    if (outcome.failed && outcome.counterexample) {
      const [counterexample] = outcome.counterexample;
      const { value } = withReferences(op, counterexample, { ...(prepared.owner?.bindings ?? {}), ...prepared.params.path });
      const request = await buildRequest({ baseUrl, method: op.method, path: op.path, params: prepared.params, body: bodyValue(op.body, value), auth: authFor(op) });
      const reason = outcome.errorInstance instanceof Error ? outcome.errorInstance.message : String(outcome.errorInstance);
      result.requests.push({
        label: `generated request, shrunk after ${outcome.numShrinks} steps (--seed ${seed})`, kind: 'generated', method: request.method, url: request.url, status: last?.status ?? null,
        checks: [fail('generated requests keep the contract', `${reason}; the smallest failing input: ${JSON.stringify(counterexample)}`)], curl: toCurl(request, redact),
      });
    } else if (sentCount) {
      result.requests.push({ label: `${sentCount} generated request${sentCount > 1 ? 's' : ''} (--seed ${seed})`, kind: 'generated', method: op.method.toUpperCase(), url: last?.url, status: last?.status ?? null, checks: [pass('generated requests keep the contract', `${sentCount} valid bodies from the schema, each answered within the contract`)] });
    } else {
      result.requests.push({ label: 'generated requests', kind: 'generated', checks: [skip('generated requests keep the contract', 'no generated body passed the schema\'s cross-field rules; only the examples were sent')] });
    }
  }

  // ---- stateful sequences --------------------------------------------------------------------
  function readBack(resource: Resource): Operation | undefined {
    return resource.kind.read ? byId.get(resource.kind.read) : undefined;
  }

  async function readResource(resource: Resource, into: RequestRecord[], label: string, extra: (a: Answer) => Check[] = () => []): Promise<Sent | undefined> {
    const read = readBack(resource);
    if (!read) return undefined;
    const path = resource.perTarget.get(read.id) ?? resource.bindings;
    const { params } = await paramsFor(read, into, resource);
    for (const name of pathParameterNames(read.path)) if (path[name] !== undefined) params.path[name] = path[name];
    return exchange(read, into, label, 'sequence', { params, auth: authFor(read) }, extra);
  }

  /** Page consistency of one list answer: page as asked, pages from results and page_size, data within the page. */
  function pageChecks(op: Operation, answer: Answer, params: Params): Check[] {
    if (!op.list || !is2xx(answer.status) || !isObject(answer.json)) return [];
    const { data, page, pages, results: total } = answer.json as { data?: unknown; page?: unknown; pages?: unknown; results?: unknown };
    if (!Array.isArray(data) || ![page, pages, total].every((n) => Number.isInteger(n))) return [];
    const size = Number(params.query.page_size ?? pointerGet(document, `${op.parameters.find((p) => p.name === 'page_size')?.pointer ?? '#/none'}/schema`)?.default ?? NaN);
    const asked = Number(params.query.page ?? 1);
    const problems: string[] = [];
    if (page !== asked) problems.push(`page is ${page} for page=${asked}`);
    if (Number.isFinite(size)) {
      const expected = Math.ceil((total as number) / size);
      if (pages !== expected && !((total as number) === 0 && (pages === 0 || pages === 1))) problems.push(`pages is ${pages}, but ${total} results at page_size ${size} make ${expected}`);
      if (data.length > size) problems.push(`${data.length} items on a page of ${size}`);
      const onThisPage = Math.max(0, Math.min(size, (total as number) - (asked - 1) * size));
      if (data.length !== onThisPage) problems.push(`${data.length} items on page ${asked}, but ${total} results at page_size ${size} put ${onThisPage} there`);
    }
    return [problems.length ? fail('page consistent', problems.join('; ')) : pass('page consistent')];
  }

  /** Walks every page of a list at the smallest page size; returns the items with their page, or undefined. */
  async function walk(list: Operation, pathValues: Record<string, unknown>, into: RequestRecord[], label: string, header: Record<string, string> = {}): Promise<{ items: { item: unknown; page: number }[]; total?: number; pages: number; complete: boolean } | undefined> {
    let params: Params = { path: { ...pathValues }, query: {}, header: { ...header } };
    if (!pathParameterNames(list.path).every((n) => pathValues[n] !== undefined)) {
      const bound = await paramsFor(list, into);
      if (bound.missing) return undefined;
      params = { path: bound.params.path, query: {}, header: { ...header } };
    }
    const sizeParameter = list.parameters.find((p) => p.name === 'page_size');
    const smallest = sizeParameter ? resolve(sizeParameter.schema)?.minimum : undefined;
    if (smallest !== undefined) params.query.page_size = smallest;
    const items: { item: unknown; page: number }[] = [];
    let total: number | undefined;
    let pages = 1;
    for (let page = 1; page <= pages && page <= 40; page++) {
      params.query.page = page;
      const { answer } = await exchange(list, into, `${label}: page ${page}`, 'pagination', { params: { ...params, query: { ...params.query } }, auth: authFor(list) }, (a) => pageChecks(list, a, { ...params, query: { ...params.query } }));
      if (!is2xx(answer.status) || !isObject(answer.json) || !Array.isArray(answer.json.data)) return undefined;
      total = Number.isInteger(answer.json.results) ? answer.json.results : total;
      pages = Number.isInteger(answer.json.pages) ? answer.json.pages : 1;
      for (const item of answer.json.data) items.push({ item, page });
    }
    return { items, total, pages, complete: pages <= 40 };
  }

  async function listedCheck(resource: Resource, into: RequestRecord[], expected: boolean, when: string): Promise<void> {
    const list = resource.kind.list ? byId.get(resource.kind.list) : undefined;
    if (!list) return;
    const parents = Object.fromEntries(pathParameterNames(list.path).map((n) => [n, resource.bindings[n]]));
    const walked = await walk(list, parents, into, `${list.id} ${when}`);
    const name = expected ? 'listed after create' : 'unlisted after delete';
    if (!walked) { into.push({ label: `${list.id} ${when}`, kind: 'sequence', checks: [fail(name, `${list.id} could not be walked (see its pages above)`)] }); return; }
    const hits = walked.items.filter((x) => keyMatch(resource, x.item));
    const what = registry.describe(resource);
    let check: Check;
    if (expected) {
      check = hits.length === 1 ? pass(name, `on page ${hits[0]!.page}`)
        : hits.length ? fail(name, `${what} is listed ${hits.length} times by ${list.id} (pages ${hits.map((h) => h.page).join(', ')})`)
          : fail(name, `${what} is missing from ${list.id}: walked ${walked.pages} page(s) of ${walked.total ?? '?'} results at the smallest page size`);
    } else {
      check = hits.length ? fail(name, `${what} is still listed by ${list.id} after its delete succeeded`) : pass(name);
    }
    into.push({ label: `${list.id} ${when}`, kind: 'sequence', checks: [check] });
  }

  async function afterCreate(op: Operation, result: OperationResult, resource: Resource): Promise<void> {
    if (!stateful || dry) return;
    const read = readBack(resource);
    if (read) {
      const writable = (name: string) => !readOnlyNames(views, successSchemaPointer(document, read)).has(name);
      await readResource(resource, result.requests, `read after create (${read.id})`, (a) => {
        if (!is2xx(a.status)) return [fail('read after create', `${read.id} answered ${describeAnswer(a)} for ${registry.describe(resource)}, which ${op.id} had just made`)];
        if (read.list || !isObject(a.json) || !isObject(resource.created)) return [pass('read after create')];
        const created = resource.created as Record<string, unknown>;
        const differ = Object.keys(created).filter((k) => k in (a.json as object) && writable(k) && !deepEqual(created[k], (a.json as any)[k]));
        return [differ.length ? fail('read after create', `${read.id} answers ${differ.map((k) => `${k} ${JSON.stringify((a.json as any)[k])}`).join(', ')}; ${op.id} answered ${differ.map((k) => JSON.stringify(created[k])).join(', ')}`) : pass('read after create')];
      });
    }
    await listedCheck(resource, result.requests, true, 'after create');
  }

  /** An update whose change must be read back: the body is made to differ from the current state. */
  async function updateRequest(op: Operation, result: OperationResult, prepared: Prepared): Promise<boolean> {
    const resource = prepared.owner;
    if (!stateful || dry || !resource || !resource.kind.updates.includes(op.id) || !prepared.bodies.length || !readBack(resource)) return false;
    const before = await readResource(resource, result.requests, 'read before update');
    if (!before || !is2xx(before.answer.status) || !isObject(before.answer.json)) return false;
    const current = before.answer.json as Record<string, unknown>;
    // A new label of this run (a unique-label rule is not broken by the change); other fields
    // that already match are changed by hand.
    const body = { ...(namer.rename(prepared.bodies[0]!.value, (c) => views.validate('request', op.body!.schemaPointer, c).valid, ['label']) as Record<string, unknown>) };
    for (const [key, value] of Object.entries(body)) {
      if (typeof value !== 'string' || !deepEqual(value, current[key])) continue;
      for (const candidate of [`${value.slice(0, -2)}-u`, `${value}2`, `u${value.slice(1)}`]) {
        if (views.validate('request', op.body!.schemaPointer, { ...body, [key]: candidate }).valid) { body[key] = candidate; break; }
      }
    }
    const sent = await exchange(op, result.requests, 'valid request (changes the resource)', 'positive', { params: prepared.params, body: bodyValue(op.body, body), auth: authFor(op) }, (a) => checkSuccess(a, 'built from the spec\'s examples'), { settle: true });
    if (!is2xx(sent.answer.status)) return true;
    // null means "not given" (the spec's DECISIONS): such a field keeps its value, so it is not a change to read back.
    const changed = Object.keys(body).filter((k) => k in current && body[k] !== null && !deepEqual(body[k], current[k]));
    await readResource(resource, result.requests, 'read after update', (a) => {
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
  async function settled(resource: Resource, into: RequestRecord[]): Promise<void> {
    // What did not settle once is not waited for again: one timeout per resource at most.
    if (!stateful || dry || !readBack(resource) || unsettled.has(resource)) return;
    // A status known from the create or the last read is trusted until an action may change it.
    if (knownStatus.has(resource) && !isTransitional(knownStatus.get(resource))) return;
    const limit = options.settleTimeoutMs ?? 60_000;
    const until = Date.now() + limit;
    let status: unknown;
    for (let pause = 100; ; pause = Math.min(pause * 2, 2000)) {
      const sent = await readResource(resource, into, `wait for ${registry.describe(resource)} to settle`);
      status = isObject(sent?.answer.json) ? (sent!.answer.json as Record<string, unknown>).status : undefined;
      if (!is2xx(sent?.answer.status) || !isTransitional(status) || Date.now() + pause > until || outOfTime()) break;
      await sleep(pause);
    }
    knownStatus.set(resource, status);
    if (isTransitional(status)) unsettled.add(resource);
    if (isTransitional(status)) into.push({ label: `wait for ${registry.describe(resource)} to settle`, kind: 'sequence', checks: [warn('settles', `${registry.describe(resource)} was still "${status}" after ${limit} ms (--settle-timeout): the operation went ahead`)] });
  }

  async function afterDelete(op: Operation, result: OperationResult, resource: Resource): Promise<void> {
    if (!stateful || dry) return;
    const read = readBack(resource);
    if (read) {
      await readResource(resource, result.requests, `read after delete (${read.id})`, (a) => [
        a.status === 404 ? pass('404 after delete') : fail('404 after delete', `${read.id} answered ${describeAnswer(a)} for ${registry.describe(resource)} after ${op.id} answered success: expected 404 (no use after delete)`),
      ]);
    }
    await listedCheck(resource, result.requests, false, 'after delete');
  }

  /** The action an undoing action undoes, on the same resource: attachVolume for detachVolume. */
  function undoneBy(op: Operation): Operation | undefined {
    const verb = UNDOING.exec(op.id)?.[1];
    if (!verb) return undefined;
    const base = op.path.slice(0, op.path.lastIndexOf('/'));
    const wanted = `${OPPOSITE[verb]}${op.id.slice(verb.length)}`;
    return ops.find((o) => o.id.toLowerCase() === wanted.toLowerCase() && o.path.slice(0, o.path.lastIndexOf('/')) === base);
  }

  // ---- operations --------------------------------------------------------------------------
  async function runOperation(op: Operation): Promise<void> {
    const result = resultOf(op)!;
    if (stateful && op.method !== 'delete') await forgetGone(op);
    const prepared = await prepare(op, result.requests);
    if (typeof prepared === 'string') { result.unproven = prepared; return; }
    // Nothing to undo when what it undoes could not be run (detach when attach had no instance).
    const undone = stateful ? undoneBy(op) : undefined;
    const undoneWhy = undone && results.get(undone)?.unproven;
    if (undoneWhy) { result.unproven = `it undoes ${undone.id}, which could not be run: ${undoneWhy}`; return; }
    if (op.writes && prepared.owner) await settled(prepared.owner, result.requests);
    // An action (boot, resize, attach) may put what it acts on into a transitional status again.
    if (op.writes && prepared.owner && op.path !== prepared.owner.kind.itemPath) knownStatus.delete(prepared.owner);
    const isDelete = op.method === 'delete';
    if (!isDelete) {
      const updated = await updateRequest(op, result, prepared);
      if (!updated) {
        const sent = await validRequests(op, result, prepared);
        const first = sent.find((s) => is2xx(s.answer.status));
        const resource = first && registry.resources.find((r) => r.creator === op.id && r.primary && r.alive);
        if (resource && op.links.length) await afterCreate(op, result, resource);
      }
      // The URLs it hands out do what they are made for, on an object of the run's own.
      const site = sites.find((s) => s.op === op);
      if (site && stateful && !dry && prepared.owner) await checkUrls(site, prepared.owner, urlTools(result.requests, 'sequence'), book, validBody(op), namer.tag);
    }
    await negativeRequests(op, result, prepared);
    await authRequests(op, result, prepared);
    await scopeRequests(op, result, prepared);
    await generatedRequests(op, result, prepared);
    if (isDelete) {
      const owner = prepared.owner;
      if (owner && !owner.alive) {
        result.requests.push({ label: 'valid request', kind: 'positive', checks: [fail('success', `${registry.describe(owner)} was already deleted by a request above that should have been refused`)] });
        return;
      }
      const [sent] = await validRequests(op, result, prepared);
      if (sent && is2xx(sent.answer.status) && owner && owner.kind.remove === op.id) {
        registry.removed(owner);
        await afterDelete(op, result, owner);
      }
    }
  }

  async function runSafely(op: Operation): Promise<void> {
    try {
      await runOperation(op);
    } catch (error) {
      if (error instanceof Stop) return;
      resultOf(op)!.requests.push({ label: 'kit error', kind: 'setup', checks: [fail('kit error', `the kit failed on this operation: ${(error as Error).stack || (error as Error).message}`)] });
    } finally {
      const r = resultOf(op)!;
      const failed = r.requests.reduce((n, q) => n + q.checks.filter((c) => c.outcome === 'fail').length, 0);
      options.onProgress?.(`${failed ? '✖' : r.unproven ? '·' : '✔'} ${op.id}${r.unproven ? ` (not proven: ${r.unproven})` : failed ? ` (${failed} failed)` : ''}`);
    }
  }

  /**
   * What an operation addresses may be gone without a delete of the run (a later snapshot replaced
   * it, a restore took an instance's configs): each such object is forgotten after a read answers
   * 404, so the operation addresses one that still exists, or is not proven when none does.
   */
  async function forgetGone(op: Operation): Promise<void> {
    if (dry) return;
    // Bounded: each try forgets one object; a run makes at most a few dozen of one kind.
    for (let tries = 0; tries < 64; tries++) {
      const { owner } = registry.bind(op);
      const read = owner?.kind.read ? byId.get(owner.kind.read) : undefined;
      if (!owner || !read || !owner.kind.itemPath || !op.path.startsWith(owner.kind.itemPath)) return;
      const path = Object.fromEntries(pathParameterNames(read.path).map((name) => [name, owner.bindings[name]]));
      if (Object.values(path).some((value) => value === undefined)) return;
      const { answer } = await exchange(read, setup, `is what ${op.id} addresses still there?`, 'setup', { params: { path, query: {}, header: {} }, auth: authFor(read) }, () => [], { probe: true });
      if (answer.status !== 404) return;
      registry.removed(owner);
    }
  }

  /**
   * Before a delete: the object it addresses may be gone already (a rebuild replaced the nodes of
   * its config, a delete of its parent took it along); then another is made to delete.
   */
  async function stillThere(op: Operation): Promise<void> {
    const read = ops.find((o) => o.method === 'get' && o.path === op.path);
    const { values, owner } = registry.bind(op);
    if (!read || !owner || pathParameterNames(op.path).some((name) => values[name] === undefined)) return;
    const { answer } = await exchange(read, setup, `is what ${op.id} deletes still there?`, 'setup', { params: { path: values, query: {}, header: {} }, auth: authFor(read) }, () => []);
    if (answer.status !== 404) return;
    registry.removed(owner);
    const creator = ordered.find((c) => registry.kindOf(c) === owner.kind);
    if (creator) await runSetupCreate(creator).catch((error) => { if (!(error instanceof Stop)) throw error; });
  }

  /** A create that only provides what selected operations need (their results are not counted). */
  async function runSetupCreate(op: Operation): Promise<void> {
    const prepared = await prepare(op, setup);
    if (typeof prepared === 'string') { notes.push(`setup: ${op.id} was not run: ${prepared}`); return; }
    if (prepared.owner) await settled(prepared.owner, setup);
    // Each example in turn until one is accepted: one may name objects that no longer exist (the
    // disks of a profile after a restore replaced them).
    for (const example of prepared.bodies.length ? prepared.bodies : [null]) {
      // Not checked against the examples: named by this run from the start.
      const value = example?.renamed ?? example?.value;
      const sent = await exchange(op, setup, `setup: ${op.id}`, 'setup', { params: prepared.params, body: example && bodyValue(prepared.body, value), auth: authFor(op) }, () => [], { settle: stateful });
      noteCreated(op, prepared.params, value, sent);
      if (is2xx(sent.answer.status)) break;
    }
  }

  // The creates, parents and referenced kinds first.
  const creators = ops.filter((op) => op.links.length && registry.kindOf(op));
  // Path parameters are hard dependencies (a config needs its instance); references in a body
  // are soft ones, dropped where they would make a cycle (an instance may come from a backup of
  // another instance, and a backup needs an instance).
  // Two kinds may share a key name (the configs of instances and of balancers): the one meant is
  // the one whose item path holds the operation's path, or shares another referenced key.
  const kindsOfParams = (params: Iterable<string>, context: { path?: string; refs?: Set<string> } = {}) => {
    const out: Operation[] = [];
    for (const param of params) {
      const candidates = creators.filter((c) => registry.kindOf(c)!.keyParams.includes(param));
      const itemPath = (c: Operation) => registry.kindOf(c)!.itemPath ?? '';
      const fitting = candidates.filter((c) => (context.path !== undefined && context.path.startsWith(itemPath(c).slice(0, itemPath(c).indexOf(`{${param}}`))))
        || [...(context.refs ?? [])].some((r) => r !== param && pathParameterNames(itemPath(c)).includes(r)));
      out.push(...(fitting.length ? fitting : candidates));
    }
    return [...new Set(out)];
  };
  // A clone needs what it clones: a create of its own kind with fewer path parameters.
  const hardDeps = (op: Operation) => kindsOfParams(pathParameterNames(op.path), { path: op.path })
    .filter((c) => c !== op && (registry.kindOf(c) !== registry.kindOf(op) || pathParameterNames(c.path).length < pathParameterNames(op.path).length));
  const hardReaches = (from: Operation, to: Operation, seen = new Set<Operation>()): boolean => {
    if (seen.has(from)) return false;
    seen.add(from);
    return hardDeps(from).some((d) => d === to || registry.kindOf(d) === registry.kindOf(to) || hardReaches(d, to, seen));
  };
  const dependsOn = (op: Operation): Operation[] => {
    const params = new Set<string>();
    for (const example of op.body?.examples ?? []) eachReference(example.value, (key) => params.add(key));
    // An id no operation creates is found in the answers of reads on what is created (a disk in
    // the profiles of an instance): those creates come first.
    for (const key of harvestedKeysOf(op)) {
      const sources = sourcesOf(key);
      const fewest = pathParameterNames(sources[0]!.path).length;
      for (const source of sources.filter((s) => pathParameterNames(s.path).length === fewest)) for (const name of pathParameterNames(source.path)) params.add(name);
    }
    const soft = kindsOfParams(params, { refs: params }).filter((c) => registry.kindOf(c) !== registry.kindOf(op) && !hardReaches(c, op));
    return [...new Set([...hardDeps(op), ...soft])];
  };
  const ordered: Operation[] = [];
  const visiting = new Set<Operation>();
  const place = (op: Operation) => {
    if (ordered.includes(op) || visiting.has(op)) return;
    visiting.add(op);
    // A dependency that itself needs what is being placed (a clone of the volume a config
    // refers to) waits for its own turn.
    for (const dependency of dependsOn(op)) if (!hardDeps(dependency).some((d) => visiting.has(d))) place(dependency);
    visiting.delete(op);
    ordered.push(op);
  };
  for (const op of [...creators].sort((a, b) => pathParameterNames(a.path).length - pathParameterNames(b.path).length || a.index - b.index)) place(op);

  // Creates the selection needs: its own, and those of every kind its operations are addressed by.
  const selectedSet = new Set(selected);
  const needed = new Set<Operation>(ordered.filter((op) => selectedSet.has(op)));
  const pending = [...selected];
  while (pending.length) {
    const op = pending.pop()!;
    for (const creator of [...kindsOfParams(pathParameterNames(op.path), { path: op.path }), ...dependsOn(op)]) {
      // One create per kind is enough to stand on: the plain one, not a clone.
      const plain = ordered.filter((c) => registry.kindOf(c) === registry.kindOf(creator)).sort((a, b) => pathParameterNames(a.path).length - pathParameterNames(b.path).length)[0];
      if (creator !== plain && !selectedSet.has(creator)) continue;
      if (creator !== op && !needed.has(creator) && !(creator.writes && !safety.writes)) { needed.add(creator); pending.push(creator); }
    }
  }

  try {
    // The mock keeps no state, so order does not matter there: everything runs at once.
    if (!stateful) {
      await pool(selected, options.concurrency ?? 8, runSafely);
      if (!abort) await methodProbes();
      throw new Stop();
    }
    // 1. creates
    for (const op of ordered) {
      if (!needed.has(op)) continue;
      if (selectedSet.has(op)) await runSafely(op);
      else await runSetupCreate(op).catch((error) => { if (!(error instanceof Stop)) throw error; });
      if (abort) break;
    }
    // The objects the selected operations name, written before they run.
    if (!abort) await placeObjects();
    // 2. reads, updates and actions; 3. destructive actions on one object
    const middle = selected.filter((op) => !ordered.includes(op) && op.method !== 'delete');
    const reads = middle.filter((op) => !op.writes);
    // Actions that replace what an object holds (a rebuild replaces a config's nodes, a restore an
    // instance's disks and configs) after the other changes, so those find what the run made; and
    // undoing actions (detach, shut down) last.
    const rank = (op: Operation) => (UNDOING.test(op.id) ? 2 : REPLACING.test(op.id) ? 1 : 0);
    const changes = middle.filter((op) => op.writes && !op.destructive)
      .sort((a, b) => rank(a) - rank(b) || pathParameterNames(a.path).length - pathParameterNames(b.path).length || a.index - b.index);
    // A destructive action on one object (cancel an instance's backups) runs before that object is
    // deleted; one on the whole account (cancel Object Storage) after the deletes it would pre-empt,
    // when the account then holds only what the run made (destroysOthers) or with --allow-destructive.
    const destructive = middle.filter((op) => op.destructive);
    const onObjects = destructive.filter((op) => pathParameterNames(op.path).length > 0);
    const accountWide = destructive.filter((op) => pathParameterNames(op.path).length === 0);
    if (!abort) await pool(reads, options.concurrency ?? 1, runSafely);
    if (!abort) await pool(changes, options.concurrency ?? 1, runSafely);
    // 4. 405 for a method each path lacks
    if (!abort) await methodProbes();
    if (!abort) for (const op of onObjects) { await runSafely(op); if (abort) break; }
    // 5. deletes, children first; 6. account-wide destructive actions
    const deletes = selected.filter((op) => op.method === 'delete').sort((a, b) => b.path.split('/').length - a.path.split('/').length || a.index - b.index);
    if (!abort) {
      for (const op of deletes) {
        // A container the run wrote objects in is emptied of them first.
        for (const container of book.containers().filter((c) => c.alive && c.kind.remove === op.id)) await emptyContainer(container, setup);
        await stillThere(op);
        await runSafely(op);
        if (abort) break;
      }
    }
    if (!abort) for (const op of accountWide) { await runSafely(op); if (abort) break; }
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
  for (const op of selected) {
    const r = resultOf(op)!;
    if (!r.requests.length && !r.unproven) r.unproven = abort ? `not reached: ${abort}` : 'not run';
  }
  const cleanup = await cleanUp();
  return finish({ ...base, target, detection: detection.reason, safety, token: tokenNote, abort, cleanup });

  // ---- 405 probes ----------------------------------------------------------------------------
  async function methodProbes(): Promise<void> {
    const byPath = new Map<string, Operation[]>();
    for (const op of ops) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
    for (const [path, pathOps] of byPath) {
      const owner = pathOps.find((op) => selectedSet.has(op));
      if (!owner) continue;
      const has = new Set(pathOps.map((op) => op.method));
      // A method another path template answers for the same URL is not lacking there:
      // GET /backups/cancel is GET /backups/{backupId} with "cancel" as the id.
      const segments = path.split('/');
      const answeredElsewhere = (method: string) => ops.some((other) => other.method === method && other.path !== path && other.path.split('/').length === segments.length
        && other.path.split('/').every((part, i) => part === segments[i] || /^\{.+\}$/.test(part) || /^\{.+\}$/.test(segments[i]!)));
      const method = ['get', 'patch', 'put', 'post'].find((m) => !has.has(m) && !answeredElsewhere(m));
      if (!method) continue;
      const probeOp: Operation = { ...owner, method, writes: method !== 'get', destructive: false, raw: { ...owner.raw, responses: {} } };
      const result = resultOf(owner)!;
      const prepared = await prepare({ ...probeOp, body: null }, result.requests);
      if (typeof prepared === 'string') { result.notes.push(`no 405 check (${method.toUpperCase()} ${path}): ${prepared}`); continue; }
      const label = `405 for ${method.toUpperCase()}, which ${path} lacks`;
      const request = await buildRequest({ baseUrl, method, path, params: prepared.params, auth: authFor(owner) });
      if (dry) { await exchange(probeOp, result.requests, label, 'method', { params: prepared.params, auth: authFor(owner) }, () => []); continue; }
      if (outOfTime()) throw new Stop();
      const answer = await send(request, transport);
      const checks: Check[] = answer.error ? [fail(label, `no answer: ${answer.error}`)] : [answer.status === 405 ? pass(label) : fail(label, `answered ${answer.status} to ${method.toUpperCase()} ${path}: ${excerpt(answer.text, 120)}`)];
      if (answer.status === 405 && ctx.errorSchemaPointer) {
        const valid = answer.json !== undefined && views.validate('response', ctx.errorSchemaPointer, answer.json).valid;
        checks.push(valid ? pass('405 body is an ErrorResponse') : fail('405 body is an ErrorResponse', `the 405 body is not an ErrorResponse: ${excerpt(answer.text, 120)}`));
      }
      result.requests.push({ label, kind: 'method', method: request.method, url: request.url, status: answer.status ?? null, ms: Math.round(answer.ms), checks, curl: checks.some((c) => c.outcome === 'fail') ? toCurl(request, redact) : undefined });
    }
    // Every list walked at its smallest page size: each item once, as many as `results` says.
    if (!stateful || dry) return;
    for (const list of selected.filter((op) => op.list)) {
      const result = resultOf(list)!;
      const { params, missing } = await paramsFor(list, result.requests);
      if (missing) continue;
      const walked = await walk(list, params.path, result.requests, `walk of every page`);
      if (!walked) continue;
      const kind = [...kinds.values()].find((k) => k.list === list.id);
      const fields = kind ? Object.values(kind.keyPointers).map((p) => p.split('/').at(-1)!) : ['id'];
      const identity = (item: unknown) => (isObject(item) && fields.every((f) => item[f] !== undefined) ? JSON.stringify(fields.map((f) => item[f])) : JSON.stringify(item));
      const keys = walked.items.map((x) => identity(x.item));
      const repeated = keys.filter((k, i) => keys.indexOf(k) !== i);
      const problems: string[] = [];
      if (repeated.length) problems.push(`${repeated.length} item(s) came twice while walking the pages (first: ${repeated[0]})`);
      if (walked.complete && walked.total !== undefined && walked.items.length !== walked.total) problems.push(`the pages held ${walked.items.length} items, but results says ${walked.total}`);
      result.requests.push({ label: `every page of ${list.id}`, kind: 'pagination', checks: [problems.length ? fail('each item once across the pages', problems.join('; ')) : pass('each item once across the pages', `${walked.items.length} items on ${walked.pages} page(s)`)] });
      // X-Filter on lists whose items have filterable fields (src/filter-checks.ts).
      const spec = filterSpecsOf(document).get(list.id);
      if (!spec || !kind) continue;
      const checks = await filterChecks({
        spec,
        all: walked,
        isOwn: (item) => registry.made(kind, item),
        walk: (text, label) => walk(list, params.path, result.requests, label, { [FILTER_HEADER]: text }),
        probe: async (text, label, check) => { await exchange(list, result.requests, label, 'negative', { params: { path: params.path, query: {}, header: { [FILTER_HEADER]: text } }, auth: authFor(list) }, check); },
      });
      result.requests.push({ label: `X-Filter of ${list.id}`, kind: 'pagination', checks });
    }
  }

  // ---- clean-up ------------------------------------------------------------------------------
  async function cleanUp(): Promise<ContractResult['cleanup']> {
    const removed: string[] = [];
    const leftBehind: { resource: string; reason: string }[] = [];
    if (target === 'mock' || dry) return { removed, leftBehind, removedAfterCheck };
    const left = registry.alive().sort((a, b) => Object.keys(b.bindings).length - Object.keys(a.bindings).length || b.id - a.id);
    for (const resource of left) {
      if (!resource.alive) continue;
      const why = await removeResource(resource, `clean up ${registry.describe(resource)}`, true);
      if (why) leftBehind.push({ resource: registry.describe(resource), reason: why });
      else removed.push(registry.describe(resource));
    }
    return { removed, leftBehind, removedAfterCheck };
  }

  function finish(partial: Omit<ContractResult, 'operations' | 'coverage' | 'tally' | 'durationMs' | 'exitCode' | 'ok' | 'cleanup'> & { cleanup?: ContractResult['cleanup'] }): ContractResult {
    const tally = { pass: 0, fail: 0, warn: 0, skip: 0 };
    const list = selected.map((op) => results.get(op)!);
    let slowest: ContractResult['slowest'];
    for (const op of list) {
      op.tally = { pass: 0, fail: 0, warn: 0, skip: 0 };
      for (const request of op.requests) {
        for (const check of request.checks) { op.tally[check.outcome]++; tally[check.outcome]++; }
        if (request.ms !== undefined && (!slowest || request.ms > slowest.ms)) slowest = { operationId: op.operationId, label: request.label, ms: request.ms };
      }
      op.successValidated = !dry && op.requests.some((r) => r.kind === 'positive' && r.checks.some((c) => c.name === 'success' && c.outcome === 'pass') && !r.checks.some((c) => c.outcome === 'fail'));
      if (!op.successValidated && !op.unproven && !op.requests.some((r) => r.kind === 'positive') && op.requests.length && !dry) op.unproven = 'no valid request was answered';
    }
    const hints: string[] = [];
    // Every valid request answered 404: most likely the base URL lacks the API's base path.
    const answered = list.flatMap((op) => op.requests.filter((r) => r.kind === 'positive' && typeof r.status === 'number'));
    if (answered.length && answered.filter((r) => r.status === 404).length >= 0.9 * answered.length) {
      const example = serverPath && !new URL(baseUrl).pathname.replace(/\/+$/, '').endsWith(serverPath) ? ` (such as ${baseUrl}${serverPath})` : '';
      hints.push(`${answered.filter((r) => r.status === 404).length} of ${answered.length} valid requests were answered 404: does --base-url end in the API's base path${serverPath ? ` (${serverPath}, from the spec's server URL)` : ''}${example}?`);
    }
    const exercised = list.filter((op) => op.requests.some((r) => r.status !== null && r.status !== undefined)).length;
    const successValidated = list.filter((op) => op.successValidated).length;
    const unproven = list.filter((op) => !op.successValidated && op.tally.fail === 0).length;
    const cleanup = partial.cleanup ?? { removed: [], leftBehind: [], removedAfterCheck: [] };
    // An unusable target ends with 2 whatever failed on the way (its failures are the symptom);
    // a deadline or an interruption after a proven violation still says 1.
    const unusable = partial.abort !== undefined && /^the target (is unusable|could not be reached)/.test(partial.abort);
    const exitCode: 0 | 1 | 2 = dry ? (partial.abort && !partial.target ? 2 : 0) : unusable ? 2 : tally.fail > 0 ? 1 : partial.abort || unproven > 0 ? 2 : 0;
    return {
      ...partial, hints, cleanup, operations: list, slowest, tally, exitCode, ok: exitCode === 0,
      coverage: { selected: list.length, total: ops.length, exercised, successValidated, unproven },
      durationMs: Math.round(performance.now() - started),
    };
  }
}
