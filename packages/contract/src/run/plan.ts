// The plan of a run: what every phase reads and none writes. It grows in three steps, each frozen
// once made: the basis (the settings, the bundle's model, the selection), what the discovery of
// the target adds (its kind, what the run may do there, the tokens), and the order of the creates.
// What a run writes is in its ledger (ledger.ts).
import { basePathOf } from '@cloudapi/spec/bundle';
import { createSchemaViews, type SchemaViews } from '@cloudapi/spec/schema-views';
import { type CheckContext, successSchemaPointer } from '../checks/answers.js';
import { idSources } from '../model/harvest.js';
import { modelOperations, type Operation } from '../model/operations.js';
import { objectSites, type ObjectSite } from '../model/objects.js';
import { creatableBy, kindOfCreator, type ResourceKind, resourceKinds } from '../model/resources.js';
import type { TokenEntry } from '../model/tokens.js';
import { createVariantDeriver } from '../model/variants.js';
import type { OutgoingRequest } from '../transport/http.js';
import type { Auth } from '../transport/requests.js';
import type { Safety, TargetKind } from '../transport/target.js';
import { type Redact, tokenNames, tokenRedactor } from './redaction.js';
import { selectOperations } from './selection.js';
import type { Settings } from './settings.js';
import { createNamer, type Namer } from './unique.js';

/** The bundle as the run reads it: the operations, the kinds of resources, the schema views. */
export interface BundleModel {
  readonly document: any;
  /** the base path of the spec's server URL (`/v4`) */
  readonly serverPath: string;
  readonly views: SchemaViews;
  readonly deriver: ReturnType<typeof createVariantDeriver>;
  readonly resolve: (node: any) => any;
  readonly ops: readonly Operation[];
  readonly byId: ReadonlyMap<string, Operation>;
  readonly kinds: ReadonlyMap<string, ResourceKind>;
  /** the operations that hand out URLs for objects (x-presigned-url) */
  readonly sites: readonly ObjectSite[];
  /** the reads whose answers name ids of a kind no operation creates (disks) */
  readonly sourcesOf: (key: string) => Operation[];
  /** the kind a create makes, from its links */
  readonly kindOf: (creator: Operation) => ResourceKind | undefined;
  /** whether some operation creates what this path parameter addresses */
  readonly creatable: (param: string) => boolean;
  /** whether a value fits a parameter's schema (request view) */
  readonly fits: (parameter: { pointer: string }, value: unknown) => boolean;
  /** whether a body fits an operation's request body schema (request view) */
  readonly validBody: (op: Operation) => (body: unknown) => boolean;
}

/** What the run knows before it meets the target. */
export interface Basis extends BundleModel {
  readonly settings: Settings;
  readonly started: number;
  readonly selected: readonly Operation[];
  readonly selectedSet: ReadonlySet<Operation>;
  /** names what the run creates, unique per run */
  readonly namer: Namer;
  /** every token the options name replaced by its name ($TOKEN, $TOKEN_1…) */
  readonly redact: Redact;
}

/** What the discovery of the target adds (phases/discovery.ts). */
export interface TargetPlan {
  readonly target: TargetKind;
  /** why the kit thinks so */
  readonly detection: string;
  readonly safety: Safety;
  readonly tokens: readonly TokenEntry[];
  readonly mainToken: string | undefined;
  readonly tokenNote: string;
  /** every token the run knows replaced by its name; the main one reads $TOKEN */
  readonly redact: Redact;
  readonly ctx: CheckContext;
  /** an implementation keeps state; the mock does not */
  readonly stateful: boolean;
  readonly settleMs: number;
  readonly concurrency: number;
  /** the credential of a valid request of the operation */
  readonly authFor: (op: Operation) => Auth;
  /** the request as a `curl` line, its tokens redacted */
  readonly toCurl: (request: OutgoingRequest) => string;
}

/** The creates in the order the state needs, and those the selection needs (run/ordering.ts). */
export interface CreatePlan {
  readonly ordered: readonly Operation[];
  readonly needed: ReadonlySet<Operation>;
}

export type Plan = Basis & TargetPlan & CreatePlan;

// Compiled validators are kept per document, so repeated runs (tests, the Vitest entry) reuse them.
const tools = new WeakMap<object, { views: SchemaViews; deriver: ReturnType<typeof createVariantDeriver> }>();
function toolsFor(document: any) {
  if (!tools.has(document)) {
    const views = createSchemaViews(document);
    tools.set(document, { views, deriver: createVariantDeriver(views) });
  }
  return tools.get(document)!;
}

export function bundleModel(document: any): BundleModel {
  const { views, deriver } = toolsFor(document);
  const resolve = (node: any) => views.resolve(node);
  const ops = modelOperations(document, resolve);
  const kinds = resourceKinds(ops);
  return Object.freeze({
    document, serverPath: basePathOf(document), views, deriver, resolve, ops,
    byId: new Map(ops.map((op) => [op.id, op])),
    kinds,
    sites: objectSites(ops, views),
    sourcesOf: idSources(ops, (o) => views.schemaAt(successSchemaPointer(document, o) ?? '#/none'), resolve),
    kindOf: (creator: Operation) => kindOfCreator(kinds, creator),
    creatable: (param: string) => creatableBy(kinds, param),
    fits: (parameter: { pointer: string }, value: unknown) => views.validate('request', `${parameter.pointer}/schema`, value).valid,
    validBody: (op: Operation) => (body: unknown) => views.validate('request', op.body!.schemaPointer, body).valid,
  });
}

/** The first step of the plan: the settings, the bundle's model and the selection. */
export function basisOf(settings: Settings, bundle: BundleModel, started = performance.now()): Basis {
  const selected = selectOperations([...bundle.ops], settings);
  return Object.freeze({
    ...bundle, settings, started, selected, selectedSet: new Set(selected), namer: createNamer(),
    redact: tokenRedactor(tokenNames(settings.token, settings.tokens)),
  });
}
