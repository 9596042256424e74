// The optional in-memory state (`createHandlers({ stateful: true })`): for every resource the
// API creates with a POST on a collection and addresses by an integer id at `<collection>/{id}`,
// a create stores the object (the create example's shape, with the fields sent and a new id), a
// read, update or delete finds it by id (404 when absent), and the list answers it page by page.
// Objects of nested collections (a balancer's configs) are kept per parent.
import { HttpResponse } from 'msw';
import { schemaParts } from '@cloudapi/spec/schema-walk';
import { deref } from '@cloudapi/spec/walk';
import { bundle } from './bundle.js';
import { errorAnswer } from './errors.js';
import type { MockOperation } from './operations.js';
import type { ReadRequest } from './request.js';

type Item = Record<string, unknown>;

interface Resource {
  collection: string;
  idParam: string;
  /** The create's success example: the shape of a stored object. */
  template: Item;
  /** Request fields that are not part of the object (write-only: secrets). */
  writeOnly: Set<string>;
}

const isObject = (value: unknown): value is Item => Boolean(value) && typeof value === 'object' && !Array.isArray(value);
const now = () => new Date().toISOString().slice(0, 19);

function writeOnlyFields(op: MockOperation): Set<string> {
  const pointer = [...(op.requestBody?.media.values() ?? [])][0];
  const fields = new Set<string>();
  if (!pointer) return fields;
  for (const part of schemaParts({ $ref: pointer }, { resolve: (node) => deref(bundle, node, '')[0], maxDepth: 8 })) {
    for (const [name, property] of Object.entries<any>(part.properties ?? {})) if (deref(bundle, property, '')[0]?.writeOnly) fields.add(name);
  }
  return fields;
}

/** The resources the state can hold, found from the operations. */
function findResources(operations: MockOperation[]): Map<string, Resource> {
  const resources = new Map<string, Resource>();
  for (const create of operations.filter((op) => op.method === 'post')) {
    const template = create.examples.get(create.successStatus)?.[0]?.value;
    if (!isObject(template) || typeof template.id !== 'number') continue;
    const item = operations.find((op) => op.method === 'get' && new RegExp(`^${create.path.replace(/[{}]/g, '\\$&')}/\\{[^}/]+\\}$`).test(op.path));
    if (!item) continue;
    const idParam = /\{([^}]+)\}$/.exec(item.path)![1]!;
    const schema = item.parameters.find((p) => p.name === idParam);
    if (deref(bundle, { $ref: schema?.schemaPointer ?? '#/none' }, '')[0]?.type !== 'integer') continue;
    resources.set(create.path, { collection: create.path, idParam, template, writeOnly: writeOnlyFields(create) });
  }
  return resources;
}

export interface Store {
  /** The answer for `op` from the state, or null when the state does not handle `op`. */
  answer(op: MockOperation, read: ReadRequest): Response | null;
  /** Forgets every object. */
  reset(): void;
}

export function createStore(operations: MockOperation[]): Store {
  const resources = findResources(operations);
  const tables = new Map<string, Map<number, Item>>();
  let nextId = 1000;

  const parentKey = (resource: Resource, params: Record<string, unknown>) =>
    `${resource.collection} ${[...resource.collection.matchAll(/\{([^}]+)\}/g)].map((m) => String(params[m[1]!])).join('/')}`;
  const table = (key: string) => {
    let rows = tables.get(key);
    if (!rows) tables.set(key, (rows = new Map()));
    return rows;
  };
  const notFound = (op: MockOperation, id: unknown) => errorAnswer(404, [{ reason: `${op.path.split('/').filter((s) => s && !s.startsWith('{')).pop()} ${id} was not found` }]);

  /** The fields of a request body that belong in the object: those of its shape, never a secret. */
  const fieldsOf = (resource: Resource, body: unknown): Item =>
    isObject(body) ? Object.fromEntries(Object.entries(body).filter(([name]) => name in resource.template && !resource.writeOnly.has(name))) : {};

  return {
    reset: () => tables.clear(),
    answer(op, { params, query, body }) {
      const created = op.method === 'post' ? resources.get(op.path) : undefined;
      if (created) {
        const id = nextId++;
        const item: Item = { ...structuredClone(created.template), ...fieldsOf(created, body), id };
        for (const stamp of ['created', 'updated']) if (typeof item[stamp] === 'string') item[stamp] = now();
        table(parentKey(created, params)).set(id, item);
        return HttpResponse.json(item as any, { status: op.successStatus });
      }
      const listed = op.method === 'get' ? resources.get(op.path) : undefined;
      if (listed) {
        const all = [...table(parentKey(listed, params)).values()];
        const pageSize = Number(query.page_size ?? 100);
        const page = Number(query.page ?? 1);
        const pages = Math.max(1, Math.ceil(all.length / pageSize));
        return HttpResponse.json({ data: all.slice((page - 1) * pageSize, page * pageSize), page, pages, results: all.length } as any, { status: op.successStatus });
      }
      const idParam = /\{([^}]+)\}$/.exec(op.path)?.[1];
      const resource = idParam ? resources.get(op.path.slice(0, op.path.lastIndexOf('/'))) : undefined;
      if (!resource || resource.idParam !== idParam || !['get', 'put', 'delete'].includes(op.method)) return null;
      const rows = table(parentKey(resource, params));
      const id = Number(params[idParam]);
      const item = rows.get(id);
      if (!item) return notFound(op, params[idParam]);
      if (op.method === 'delete') {
        rows.delete(id);
        return op.successStatus === 204 ? new HttpResponse(null, { status: 204 }) : HttpResponse.json({}, { status: op.successStatus });
      }
      if (op.method === 'put') {
        Object.assign(item, fieldsOf(resource, body));
        if (typeof item.updated === 'string') item.updated = now();
      }
      return HttpResponse.json(item as any, { status: op.successStatus });
    },
  };
}
