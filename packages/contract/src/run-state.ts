// What one run knows and keeps while its phases run: the bundle's model, the target, the tokens,
// what the run created (the registry) and wrote (the object book), the records of every request,
// and why it stopped. Each phase module takes it as its first argument.
import { createSchemaViews, type SchemaViews } from '@cloudapi/spec/schema-views';
import { type CheckContext, successSchemaPointer, type TargetKind } from './checks.js';
import type { ContractOptions, NotRun, OperationResult, RequestRecord } from './contract-types.js';
import { exampleIdsOf, Harvest, idSources } from './harvest.js';
import { type Answer, type OutgoingRequest, toCurl, type TransportOptions } from './http.js';
import { modelOperations, type Operation } from './model.js';
import { ObjectBook, objectSites, type ObjectSite } from './objects.js';
import { type Redact, tokenNames, tokenRedactor } from './redaction.js';
import type { Auth, BodyValue, Params } from './requests.js';
import { type ExchangeView, type Resource, ResourceRegistry, resourceKinds } from './resources.js';
import { selectOperations } from './selection.js';
import { declaredStatuses } from './status-coverage.js';
import type { Safety } from './target.js';
import type { TokenEntry } from './tokens.js';
import { createNamer } from './unique.js';
import { createVariantDeriver } from './variants.js';

/** Thrown to stop sending: the deadline, Ctrl-C, or an unusable target (the reason is in `abort`). */
export class Stop extends Error {}

// Compiled validators are kept per document, so repeated runs (tests, the Vitest entry) reuse them.
const tools = new WeakMap<object, { views: SchemaViews; deriver: ReturnType<typeof createVariantDeriver> }>();
function toolsFor(document: any) {
  if (!tools.has(document)) {
    const views = createSchemaViews(document);
    tools.set(document, { views, deriver: createVariantDeriver(views) });
  }
  return tools.get(document)!;
}

export const bodyValue = (body: Operation['body'], value: unknown): BodyValue | null => (body ? { mediaType: body.mediaType, value, binaryFields: body.binaryFields, encoding: body.encoding } : null);

export const exchangeView = (params: Params, body: unknown, answer: Answer): ExchangeView => ({
  request: { path: params.path, query: params.query, headers: {}, body },
  response: { body: answer.json, headers: answer.headers },
});

export class RunState {
  readonly started = performance.now();
  readonly baseUrl: string;
  readonly views: SchemaViews;
  readonly deriver: ReturnType<typeof createVariantDeriver>;
  readonly resolve: (node: any) => any;
  readonly transport: TransportOptions;
  readonly deadline: number;
  readonly seed: number;
  readonly dry: boolean;
  readonly ops: Operation[];
  readonly byId: Map<string, Operation>;
  readonly kinds: ReturnType<typeof resourceKinds>;
  readonly registry: ResourceRegistry;
  /** Objects written through URLs the target hands out (x-presigned-url), and why one could not be. */
  readonly sites: ObjectSite[];
  readonly book = new ObjectBook();
  readonly unwritten = new Map<string, string>();
  /** Ids the target names in its answers that no operation creates (disks): the registry tracks the rest. */
  readonly harvest: Harvest;
  readonly sourcesOf: (key: string) => Operation[];
  readonly notes: string[] = [];
  readonly notRun: NotRun[] = [];
  readonly planned: string[] = [];
  readonly setup: RequestRecord[] = [];
  readonly results = new Map<Operation, OperationResult>();
  readonly selected: Operation[];
  readonly selectedSet: Set<Operation>;
  /** What checks made on the way and the run deleted right after them. */
  readonly removedAfterCheck: string[] = [];
  /** Values of path parameters found in a list (`${listPath} ${name}`). */
  readonly discovered = new Map<string, unknown>();
  /** What each list of a created kind held before the run's creates (`${listId} ${parents}` → items): preexisting.ts. */
  readonly listedBefore = new Map<string, unknown[]>();
  readonly unsettled = new Set<Resource>();
  readonly knownStatus = new Map<Resource, unknown>();
  readonly namer = createNamer();
  abort: string | undefined;
  transportFailures = 0;
  readonly streaks = new Map<string, number>();
  rateLimitedInARow = 0;
  /** Valid requests in a row answered 429 or 503 (after their retries): a target that throttles or fails everything. */
  refusedInARow = 0;
  /** The creates in the order the state needs (ordering.ts), and those the selection needs. */
  ordered: Operation[] = [];
  needed = new Set<Operation>();

  // Set by the discovery of the target (discovery.ts).
  target!: TargetKind;
  detection!: string;
  safety!: Safety;
  tokens: TokenEntry[] = [];
  mainToken: string | undefined;
  tokenNote = 'not used';
  /** Every token the run knows replaced by its name; discovery names the main one (`$TOKEN`). */
  redact: Redact;
  ctx!: CheckContext;
  stateful = false;
  settleMs = 0;

  constructor(readonly options: ContractOptions, readonly document: any, readonly serverPath: string) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.redact = tokenRedactor(tokenNames(options.token, options.tokens ?? []));
    ({ views: this.views, deriver: this.deriver } = toolsFor(document));
    this.resolve = (node: any) => this.views.resolve(node);
    this.transport = { timeoutMs: options.timeoutMs ?? 15_000, maxBodyBytes: Math.round((options.maxBodyMb ?? 32) * 1024 * 1024) };
    this.deadline = Date.now() + (options.deadlineMs ?? 15 * 60_000);
    this.seed = options.seed ?? (Date.now() % 2 ** 31);
    this.dry = Boolean(options.dryRun);
    this.ops = modelOperations(document, this.resolve);
    this.byId = new Map(this.ops.map((op) => [op.id, op]));
    this.kinds = resourceKinds(this.ops);
    this.registry = new ResourceRegistry(this.kinds, this.byId);
    this.sites = objectSites(this.ops, this.views);
    this.harvest = new Harvest((key) => !this.registry.creatable(key), exampleIdsOf(this.ops));
    this.sourcesOf = idSources(this.ops, (o) => this.views.schemaAt(successSchemaPointer(document, o) ?? '#/none'), this.resolve);
    this.selected = selectOperations(this.ops, options);
    this.selectedSet = new Set(this.selected);
    for (const op of this.selected) {
      this.results.set(op, { operationId: op.id, method: op.method.toUpperCase(), path: op.path, tags: op.tags, security: op.security, requests: [], notes: [], successValidated: false, tally: { pass: 0, fail: 0, warn: 0, skip: 0 }, declaredStatuses: declaredStatuses(op.raw.responses), seenStatuses: [] });
    }
  }

  /** Whether the run must stop sending (Ctrl-C, the deadline, or an abort already decided); records why. */
  outOfTime(): boolean {
    if (this.options.signal?.aborted) this.abort ??= 'interrupted (Ctrl-C): stopped sending, cleaned up';
    else if (Date.now() > this.deadline) this.abort ??= `the deadline of ${Math.round((this.options.deadlineMs ?? 900_000) / 1000)} s was reached (--deadline)`;
    return this.abort !== undefined;
  }

  resultOf(op: Operation): OperationResult | undefined {
    return this.results.get(op);
  }

  authFor(op: Operation): Auth {
    return op.security === 'public' || !this.mainToken ? { kind: 'none' } : { kind: 'token', token: this.mainToken };
  }

  /** The request as a `curl` line, its tokens redacted. */
  toCurl(request: OutgoingRequest): string {
    return toCurl(request, this.redact);
  }

  /** Whether a value fits a parameter's schema (request view). */
  fits(parameter: { pointer: string }, value: unknown): boolean {
    return this.views.validate('request', `${parameter.pointer}/schema`, value).valid;
  }

  /** Whether a body fits an operation's request body schema (request view). */
  validBody(op: Operation): (body: unknown) => boolean {
    return (body) => this.views.validate('request', op.body!.schemaPointer, body).valid;
  }
}

/** A request body example; `renamed`: the same with the run's names, sent when `value`'s names are taken. */
export interface ExampleBody { name: string; value: unknown; renamed?: unknown }
/** What an operation's requests are built from: its parameters, what it addresses, its valid bodies. */
export interface Prepared { params: Params; owner?: Resource; bodies: ExampleBody[]; body: Operation['body'] }
