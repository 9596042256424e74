// Objects written through URLs the target hands out, as the bundle describes them: an operation
// marked `x-presigned-url` (spec/DECISIONS.md section 5) answers a URL that anyone may use without
// a token, for the method, Content-Type and object its request named. Here: which operations hand
// out such URLs and where their request names each part (sites), which operations name an object
// of a site, the request bodies that make a URL, and the book of what the run wrote. The writing,
// checking and removing through the URLs is phases/objects.ts.
import { parsePointer } from '@cloudapi/spec/json-pointer';
import type { SchemaViews } from '@cloudapi/spec/schema-views';
import { schemaParts } from '@cloudapi/spec/schema-walk';
import { type Operation, valueAt } from './operations.js';
import type { Resource } from './resources.js';

/** An operation that hands out URLs for the objects of a container. */
export interface ObjectSite {
  op: Operation;
  /** the path of the container the objects live in: the operation's, without its trailing literal segments */
  containerPath: string;
  methodPointer: string;
  contentTypePointer?: string;
  objectPointer: string;
  /** the request field naming the object, as other operations name it (`name`) */
  field: string;
  /** the methods a URL may be made for: the enum of the method field */
  methods: string[];
}

// Methods whose request carries a body, and so a Content-Type the URL is made for.
const SENDS_BODY = new Set(['PUT', 'POST', 'PATCH']);

// The properties an object schema declares, its allOf members' included.
function propertiesOf(views: SchemaViews, node: unknown): Record<string, unknown> {
  // The schema's own properties win over its allOf members' (assigned last).
  const parts = schemaParts(node, { resolve: views.resolve, keywords: ['allOf'] });
  return Object.assign({}, ...parts.reverse().map((part) => part.properties ?? {}));
}

/** The property schema a JSON pointer (`/method`) names in a request body schema. */
function propertyAt(views: SchemaViews, schema: unknown, pointer: string): any {
  let at: unknown = schema;
  for (const token of parsePointer(pointer)) {
    at = views.resolve(propertiesOf(views, at)[token]);
    if (!at) return undefined;
  }
  return at;
}

/** The operations of the bundle that hand out URLs for objects, with where their request names each part. */
export function objectSites(ops: Operation[], views: SchemaViews): ObjectSite[] {
  const sites: ObjectSite[] = [];
  for (const op of ops) {
    const p = op.presigned;
    if (!p || !op.body || p.method.from !== 'request.body' || p.object?.from !== 'request.body' || (p.contentType && p.contentType.from !== 'request.body')) continue;
    const schema = views.schemaAt(op.body.schemaPointer);
    const methods: string[] = (propertyAt(views, schema, p.method.pointer)?.enum ?? []).filter((m: unknown) => typeof m === 'string');
    sites.push({
      op, methods, containerPath: op.path.replace(/(\/[^/{}]+)+$/, ''), methodPointer: p.method.pointer, objectPointer: p.object.pointer,
      contentTypePointer: p.contentType?.from === 'request.body' ? p.contentType.pointer : undefined, field: parsePointer(p.object.pointer).at(-1)!,
    });
  }
  return sites;
}

/** Where an operation names an object of the site: a query parameter or a top-level body field of its name, under the container. */
export function objectReference(op: Operation, site: ObjectSite): 'query' | 'body' | undefined {
  if (op === site.op || !op.path.startsWith(`${site.containerPath}/`)) return undefined;
  if (op.parameters.some((p) => p.in === 'query' && p.name === site.field)) return 'query';
  if (op.body?.examples.some((e) => typeof (e.value as any)?.[site.field] === 'string')) return 'body';
  return undefined;
}

const setAt = (body: Record<string, unknown>, pointer: string, value: unknown) => {
  const tokens = parsePointer(pointer);
  let at: any = body;
  for (const token of tokens.slice(0, -1)) at = at[token] = typeof at[token] === 'object' && at[token] !== null ? { ...at[token] } : {};
  if (value === undefined) delete at[tokens.at(-1)!];
  else at[tokens.at(-1)!] = value;
};

/**
 * A request body for a URL allowing `method` on `name`: the site's example for that method (or its
 * first), with the method and object set; a Content-Type only where the method sends a body.
 */
export function urlBody(site: ObjectSite, method: string, name: string, contentType: string | undefined, valid: (body: unknown) => boolean): Record<string, unknown> | undefined {
  const examples = (site.op.body?.examples ?? []).map((e) => e.value).filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
  const start = examples.find((e) => valueAt(e, site.methodPointer) === method) ?? examples[0] ?? {};
  const body = structuredClone(start);
  setAt(body, site.methodPointer, method);
  setAt(body, site.objectPointer, name);
  if (site.contentTypePointer) setAt(body, site.contentTypePointer, SENDS_BODY.has(method) ? contentType ?? 'application/octet-stream' : undefined);
  return valid(body) ? body : undefined;
}

/** The Content-Type the site's examples upload with, and the object name of its upload example. */
export function uploadExample(site: ObjectSite): { name?: string; contentType?: string } {
  const examples = (site.op.body?.examples ?? []).map((e) => e.value);
  const upload = examples.find((e) => SENDS_BODY.has(String(valueAt(e, site.methodPointer)))) ?? examples[0];
  const name = valueAt(upload, site.objectPointer);
  const contentType = site.contentTypePointer ? valueAt(upload, site.contentTypePointer) : undefined;
  return { name: typeof name === 'string' ? name : undefined, contentType: typeof contentType === 'string' ? contentType : undefined };
}

/** The objects this run wrote, by the container they are in, with the Content-Type they were written with. */
export class ObjectBook {
  private readonly written = new Map<Resource, Map<string, string | undefined>>();
  add(container: Resource, name: string, contentType?: string): void {
    if (!this.written.has(container)) this.written.set(container, new Map());
    this.written.get(container)!.set(name, contentType);
  }
  remove(container: Resource, name: string): void { this.written.get(container)?.delete(name); }
  has(container: Resource | undefined, name: string): boolean { return Boolean(container && this.written.get(container)?.has(name)); }
  in(container: Resource): string[] { return [...(this.written.get(container)?.keys() ?? [])]; }
  containers(): Resource[] { return [...this.written].filter(([, names]) => names.size).map(([container]) => container); }
}
