// The plan of a run: what every phase reads and none writes. It grows in three steps, each frozen
// once made: the basis (the settings, the bundle's model, the selection), what the discovery of
// the target adds (its kind, what the run may do there, the tokens), and the order of the creates.
// What a run writes is in its ledger (ledger.ts).
import { createHash } from 'node:crypto';
import { basePathOf } from '@cloudapi/spec/bundle';
import { createSchemaViews, type SchemaViews } from '@cloudapi/spec/schema-views';
import { type CheckContext, secretNamesOf, successSchemaPointer } from '../checks/answers.js';
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
  /** the names of the bundle's secrets (checks/answers.ts, secretNamesOf) */
  readonly secretNames: ReadonlySet<string>;
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

// The model of a bundle (its compiled validators above all, about a second for the whole
// bundle) is made once per document and kept: by the document object, and by its content, as
// loadDocument() reads a new object on every call (the Vitest entry, a script that runs the kit
// twice). The model is only read by runs. A document is taken as it is at its first run: an
// edited one is a new object (its content is checked again before a model is shared with it).
const byObject = new WeakMap<object, BundleModel>();
const byContent = new Map<string, BundleModel>();
const KEPT_BY_CONTENT = 4;

const contentKey = (document: any) => createHash('sha256').update(JSON.stringify(document)).digest('base64');

export function bundleModel(document: any): BundleModel {
  const known = byObject.get(document);
  if (known) return known;
  const key = contentKey(document);
  const same = byContent.get(key);
  // The same content under another object, as long as the first one has not been edited since.
  const model = same && contentKey(same.document) === key ? same : makeBundleModel(document);
  byContent.delete(key);
  byContent.set(key, model);
  if (byContent.size > KEPT_BY_CONTENT) byContent.delete(byContent.keys().next().value!);
  byObject.set(document, model);
  return model;
}

function makeBundleModel(document: any): BundleModel {
  const views = createSchemaViews(document);
  const deriver = createVariantDeriver(views);
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
    secretNames: secretNamesOf(document),
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
