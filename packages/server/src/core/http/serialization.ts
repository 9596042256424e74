// Responses are written by fast-json-stringify from the response schemas of the bundle, in the
// response view with write-only properties left out: a field the schema does not declare never
// leaves the server, and a secret is never written back. Serializers compile on first use.
import fastJson from 'fast-json-stringify';
import { parsePointer } from '@cloudapi/spec/json-pointer';
import { pointerGet, viewDocument } from '@cloudapi/spec/schema-views';
import { mapSubschemas, walkSchema } from '@cloudapi/spec/schema-walk';

const VIEW_ID = 'cloudapi-response-view';

/**
 * Keywords that only constrain values (`if`/`then`/`else`, `not`). fast-json-stringify cannot
 * merge some conditional branches (a field of one type in the schema and of another in a branch;
 * the bundle has none today, a bundle given to startServer may); such a schema is compiled without
 * them, which writes the same fields.
 */
const CONDITIONAL_KEYWORDS = new Set(['if', 'then', 'else', 'not']);

/** A schema without those keywords, at any depth (a property named `if` is kept: only keywords go). */
function withoutConditionals(schema: unknown): unknown {
  const mapped = mapSubschemas(schema, (sub) => withoutConditionals(sub));
  if (!mapped || typeof mapped !== 'object') return mapped;
  return Object.fromEntries(Object.entries(mapped).filter(([key]) => !CONDITIONAL_KEYWORDS.has(key)));
}

/** The view document with each of its component schemas without conditionals. */
function viewWithoutConditionals(view: any): object {
  const schemas = view.components?.schemas ?? {};
  return { ...view, components: { ...view.components, schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, withoutConditionals(schema)])) } };
}

/** The `#…` pointers that `root` reaches through `$ref`s in `document`, following each target's own. */
function referencedPointers(document: unknown, root: unknown): string[] {
  const found = new Set<string>();
  const pending = [root];
  while (pending.length) {
    walkSchema(pending.pop(), (schema) => {
      const ref = schema.$ref;
      if (typeof ref === 'string' && ref.startsWith('#') && !found.has(ref)) {
        found.add(ref);
        pending.push(pointerGet(document, ref));
      }
    });
  }
  return [...found];
}

/**
 * The parts of `document` at `pointers`, each at its place in a new document (containers on the
 * way made anew: `document` is not changed). fast-json-stringify walks the whole of the external
 * document it is handed on every compile: the whole view made each serializer cost about 20 ms.
 */
function documentOf(document: unknown, pointers: string[]): Record<string, unknown> {
  const pruned: Record<string, unknown> = {};
  const kept: string[] = [];
  for (const pointer of [...pointers].sort((a, b) => a.length - b.length)) {
    if (kept.some((k) => pointer === k || pointer.startsWith(`${k}/`))) continue; // inside one kept whole
    kept.push(pointer);
    const tokens = parsePointer(pointer);
    const last = tokens.pop();
    if (last === undefined) return document as Record<string, unknown>; // `#`: the whole of it
    let container: any = pruned;
    let source: any = document;
    for (const token of tokens) {
      source = source[token];
      container = (container[token] ??= Array.isArray(source) ? [] : {});
    }
    container[last] = source[last];
  }
  return pruned;
}

export type Serializer = (value: unknown) => string;

export class ResponseSerialization {
  private readonly document: unknown;
  private viewDocument: object | null = null;
  private readonly cache = new Map<string, Serializer>();

  constructor(document: unknown) {
    this.document = document;
  }

  // Made on first use: start-up does not wait for it.
  private get view(): object {
    return (this.viewDocument ??= { ...viewDocument(this.document, 'response', { remove: true }), $id: VIEW_ID });
  }

  /** The serializer of the schema at `pointer` (a JSON pointer into the bundle). */
  forPointer(pointer: string): Serializer {
    let serializer = this.cache.get(pointer);
    if (!serializer) {
      let compiled: Serializer | undefined;
      serializer = (value) => {
        compiled ??= this.compile(pointer);
        return compiled(value);
      };
      this.cache.set(pointer, serializer);
    }
    return serializer;
  }

  private compile(pointer: string): Serializer {
    // The root's references point into the view: it is handed only what they reach of it.
    const build = (root: unknown, view: object) => fastJson(root as object, {
      schema: { [VIEW_ID]: { ...documentOf(view, referencedPointers(view, pointerGet(view, pointer))), $id: VIEW_ID } },
      ajv: { strict: false, logger: false },
    } as any) as unknown as Serializer;
    try {
      return build(this.standalone(pointer), this.view);
    } catch (error) {
      if ((error as { code?: string }).code !== 'JSON_SCHEMA_MERGE_ERROR') throw error;
      return build(withoutConditionals(this.standalone(pointer)), viewWithoutConditionals(this.view));
    }
  }

  // The schema at `pointer` as a root schema of its own: its `#/…` references now point into the
  // view document. (fast-json-stringify resolves references into schemas only, not into `paths`.)
  private standalone(pointer: string): object {
    const node = pointerGet(this.view, pointer);
    if (node === undefined) throw new Error(`no schema at ${pointer} in the bundle`);
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (!value || typeof value !== 'object') return value;
      return Object.fromEntries(Object.entries(value).map(([key, sub]) => [key, key === '$ref' && typeof sub === 'string' && sub.startsWith('#') ? `${VIEW_ID}${sub}` : rewrite(sub)]));
    };
    return rewrite(node) as object;
  }
}
