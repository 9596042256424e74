// Resources the run creates, and how they are addressed, read, listed and deleted: all of it
// from the OpenAPI links of the operations that create them. A create operation's success answer
// carries one link per operation on the new resource, mapping each path parameter of the target
// from the answer (`$response.body#/id`: the new resource's key) or the request (`$request.path.
// domainId`: a parent's key). The kit only ever changes or deletes what this registry holds.
import { parsePointer } from '@cloudapi/spec/json-pointer';
import { type Expression, type Link, type Operation, pathParameterNames, valueAt } from './operations.js';

/** A kind of resource: the path parameters that address it and the operations that act on it. */
export interface ResourceKind {
  /** the key parameters, joined: `volumeId`, `bucket+clusterId` */
  key: string;
  keyParams: string[];
  /** key parameter → the pointer into the create answer that gives it */
  keyPointers: Record<string, string>;
  creators: string[];
  itemPath?: string;
  read?: string;
  remove?: string;
  updates: string[];
  list?: string;
  /** every operation some creator links to */
  targets: Set<string>;
}

export interface Resource {
  id: number;
  kind: ResourceKind;
  creator: string;
  /** every path parameter value the links give, parents included */
  bindings: Record<string, unknown>;
  /** target operationId → its path parameter values */
  perTarget: Map<string, Record<string, unknown>>;
  created: unknown;
  alive: boolean;
  primary: boolean;
  /** why it could not be removed, once clean-up tried */
  leftBehind?: string;
}

export interface ExchangeView {
  request: { path: Record<string, unknown>; query: Record<string, unknown>; headers: Record<string, string>; body: unknown };
  response: { body: unknown; headers: Record<string, string | string[] | undefined> };
}

export function evaluate(expression: Expression, exchange: ExchangeView): unknown {
  switch (expression.from) {
    case 'response.body': return valueAt(exchange.response.body, expression.pointer);
    case 'request.body': return valueAt(exchange.request.body, expression.pointer);
    case 'request.path': return exchange.request.path[expression.name];
    case 'request.query': return exchange.request.query[expression.name];
    case 'request.header': return exchange.request.headers[expression.name.toLowerCase()];
    case 'response.header': return exchange.response.headers[expression.name.toLowerCase()];
    default: return expression.value;
  }
}

const trimItem = (path: string, keyParams: string[]): string => {
  let out = path;
  for (;;) {
    const m = /\/\{([^}]+)\}$/.exec(out);
    if (!m || !keyParams.includes(m[1] as string)) return out;
    out = out.slice(0, m.index);
  }
};

/** The kinds of resources the document's links describe, by key (the item path they live at). */
export function resourceKinds(ops: Operation[]): Map<string, ResourceKind> {
  const byId = new Map(ops.map((op) => [op.id, op]));
  const kinds = new Map<string, ResourceKind>();
  for (const creator of ops.filter((op) => op.links.length)) {
    const keyPointers: Record<string, string> = {};
    for (const link of creator.links) {
      for (const [param, expression] of Object.entries(link.parameters)) {
        if (expression.from === 'response.body') keyPointers[param] ??= expression.pointer;
      }
    }
    const keyParams = Object.keys(keyPointers).sort();
    if (!keyParams.length) continue;
    const targets = creator.links.map((l) => byId.get(l.target)).filter((op): op is Operation => Boolean(op));
    const addressed = (op: Operation) => keyParams.every((p) => pathParameterNames(op.path).includes(p));
    const remove = targets.find((op) => op.method === 'delete' && addressed(op));
    const gets = targets.filter((op) => op.method === 'get' && addressed(op) && keyParams.includes(/\{([^}]+)\}$/.exec(op.path)?.[1] ?? ''));
    const itemPath = remove?.path ?? gets.sort((a, b) => a.path.length - b.path.length)[0]?.path;
    // Two creates of the same thing (a create and a clone) share a kind; two things with the same
    // key name (the configs of instances and of balancers) do not.
    const key = itemPath ?? `${keyParams.join('+')} (${creator.id})`;
    const kind: ResourceKind = kinds.get(key) ?? { key, keyParams, keyPointers, creators: [], updates: [], targets: new Set(), itemPath, remove: remove?.id };
    kind.creators.push(creator.id);
    for (const link of creator.links) kind.targets.add(link.target);
    kinds.set(key, kind);
  }
  for (const kind of kinds.values()) {
    if (!kind.itemPath) continue;
    kind.read = ops.find((op) => op.method === 'get' && op.path === kind.itemPath)?.id;
    kind.updates = ops.filter((op) => op.method === 'put' && op.path === kind.itemPath).map((op) => op.id);
    const parent = trimItem(kind.itemPath, kind.keyParams);
    kind.list = ops.find((op) => op.method === 'get' && op.path === parent && op.list)?.id;
  }
  return kinds;
}

/** snake_case body field → the path parameter naming the same kind of thing: compute_id → computeId, volumes → volumeId. */
export function referenceParameter(field: string, isIntegerArray: boolean): string | undefined {
  const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  if (/_id$/.test(field)) return `${camel(field.slice(0, -3))}Id`;
  if (isIntegerArray && /s$/.test(field)) return `${camel(field.slice(0, -1))}Id`;
  return undefined;
}

/** Whether two sets of bindings hold the same values (compared as strings) for every one of `names`. */
export function sameBindings(a: Record<string, unknown>, b: Record<string, unknown>, names: readonly string[]): boolean {
  return names.every((n) => a[n] !== undefined && String(a[n]) === String(b[n]));
}

/** Whether a list item is the resource: its key fields hold the values the create answer gave. */
export function keyMatch(resource: Pick<Resource, 'kind' | 'bindings'>, item: unknown): boolean {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return false;
  return resource.kind.keyParams.every((p) => {
    const field = parsePointer(resource.kind.keyPointers[p]!).at(-1)!;
    const value = (item as Record<string, unknown>)[field];
    return value !== undefined && String(value) === String(resource.bindings[p]);
  });
}

/** The kind a creator's answer makes, if its links give a key. */
export function kindOfCreator(kinds: ReadonlyMap<string, ResourceKind>, creator: Operation): ResourceKind | undefined {
  return [...kinds.values()].find((k) => k.creators.includes(creator.id));
}

/** Whether some operation of the document creates things addressed by this path parameter. */
export function creatableBy(kinds: ReadonlyMap<string, ResourceKind>, param: string): boolean {
  return [...kinds.values()].some((k) => k.keyParams.includes(param));
}

export class ResourceRegistry {
  readonly resources: Resource[] = [];
  private next = 1;
  constructor(readonly kinds: ReadonlyMap<string, ResourceKind>, readonly ops: ReadonlyMap<string, Operation>) {}

  /** The kind a creator's answer makes, if its links give a key. */
  kindOf(creator: Operation): ResourceKind | undefined {
    return kindOfCreator(this.kinds, creator);
  }

  /** Whether some operation of the document creates things addressed by this path parameter. */
  creatable(param: string): boolean {
    return creatableBy(this.kinds, param);
  }

  /**
   * Records what a successful create made, from its links; undefined when the answer does not
   * give the key (then nothing is known to clean up, and the caller says so).
   */
  record(creator: Operation, exchange: ExchangeView): Resource | undefined {
    const found = this.addressOf(creator, exchange);
    if (!found) return undefined;
    const { kind, bindings, perTarget } = found;
    const primary = !this.resources.some((r) => r.kind === kind && r.primary && r.alive);
    const resource: Resource = { id: this.next++, kind, creator: creator.id, bindings, perTarget, created: exchange.response.body, alive: true, primary };
    this.resources.push(resource);
    return resource;
  }

  /** Where a create's answer says its object is (its kind, key and the links' values), without recording it. */
  addressOf(creator: Operation, exchange: ExchangeView): Pick<Resource, 'kind' | 'bindings' | 'perTarget'> | undefined {
    const kind = this.kindOf(creator);
    if (!kind) return undefined;
    const perTarget = new Map<string, Record<string, unknown>>();
    const bindings: Record<string, unknown> = {};
    for (const link of creator.links) {
      const values: Record<string, unknown> = {};
      for (const [param, expression] of Object.entries(link.parameters)) values[param] = evaluate(expression, exchange);
      perTarget.set(link.target, values);
      for (const [param, value] of Object.entries(values)) if (value !== undefined) bindings[param] ??= value;
    }
    if (kind.keyParams.some((p) => bindings[p] === undefined || bindings[p] === null)) return undefined;
    return { kind, bindings, perTarget };
  }

  /** Whether a list item of a kind is something this run created (deleted since or not). */
  made(kind: ResourceKind, item: unknown): boolean {
    return this.resources.some((r) => r.kind === kind && keyMatch(r, item));
  }

  alive(): Resource[] {
    return this.resources.filter((r) => r.alive);
  }

  primaryOf(kindKey: string): Resource | undefined {
    return this.resources.find((r) => r.kind.key === kindKey && r.alive && r.primary)
      ?? this.resources.find((r) => r.kind.key === kindKey && r.alive);
  }

  /**
   * Path parameter values for an operation from what the run created: the link of a live
   * resource to that operation, else the most specific live resource holding each parameter.
   * Parameters left out are not owned by the run.
   */
  bind(op: Operation, prefer?: Resource): { values: Record<string, unknown>; owner?: Resource } {
    const names = pathParameterNames(op.path);
    const live = this.alive().sort((a, b) => Number(b === prefer) - Number(a === prefer) || Number(b.primary) - Number(a.primary) || a.id - b.id);
    const linked = live.find((r) => r.perTarget.has(op.id) && names.every((n) => r.perTarget.get(op.id)![n] !== undefined));
    if (linked) return { values: { ...linked.perTarget.get(op.id) }, owner: linked };
    const values: Record<string, unknown> = {};
    let owner: Resource | undefined;
    // The resource that binds the most of this path's parameters, then the others for the rest.
    const ranked = live.map((r) => ({ r, n: names.filter((n) => r.bindings[n] !== undefined).length })).filter((x) => x.n).sort((a, b) => b.n - a.n);
    for (const { r } of ranked) {
      const consistent = names.every((n) => values[n] === undefined || r.bindings[n] === undefined || r.bindings[n] === values[n]);
      if (!consistent) continue;
      for (const n of names) if (values[n] === undefined && r.bindings[n] !== undefined) values[n] = r.bindings[n];
      owner ??= r;
    }
    return { values, owner };
  }

  /** A live resource addressed by `param`, consistent with values already chosen. */
  referenceFor(param: string, chosen: Record<string, unknown>): Resource | undefined {
    const live = this.alive().filter((r) => r.bindings[param] !== undefined && r.kind.keyParams.includes(param));
    const consistent = live.filter((r) => Object.entries(chosen).every(([k, v]) => r.bindings[k] === undefined || r.bindings[k] === v || k === param));
    // The one that shares the most with what is already chosen: the config of the chosen instance.
    const shared = (r: Resource) => Object.entries(chosen).filter(([k, v]) => k !== param && r.bindings[k] === v).length;
    return consistent.sort((a, b) => shared(b) - shared(a) || Number(b.primary) - Number(a.primary) || a.id - b.id)[0];
  }

  /**
   * Marks the resources a successful delete removed: the one addressed, and those below its item
   * path with the same values of its parameters (the configs of an instance). Two kinds may share
   * a key name (the configs of instances and of balancers): a balancer's config 6 is not below an
   * instance's config 6.
   */
  removed(resource: Resource): void {
    const path = resource.kind.itemPath;
    const names = path ? pathParameterNames(path) : resource.kind.keyParams;
    for (const r of this.resources) {
      if (!r.alive) continue;
      const under = r.kind === resource.kind || (path !== undefined && Boolean(r.kind.itemPath?.startsWith(`${path}/`)));
      const below = under && sameBindings(r.bindings, resource.bindings, names);
      if (r === resource || below) r.alive = false;
    }
  }

  /** A name for reports: `volume volumeId=9001 (createVolume)`. */
  describe(resource: Resource): string {
    const key = resource.kind.keyParams.map((p) => `${p}=${String(resource.bindings[p])}`).join(', ');
    return `${resource.kind.itemPath ?? resource.kind.key} ${key} (made by ${resource.creator})`;
  }
}

export type { Link };
