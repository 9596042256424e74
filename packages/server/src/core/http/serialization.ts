// Responses are written by fast-json-stringify from the response schemas of the bundle, in the
// response view with write-only properties left out: a field the schema does not declare never
// leaves the server, and a secret is never written back. Serializers compile on first use.
import fastJson from 'fast-json-stringify';
import { pointerGet, viewDocument } from '@cloudapi/spec/schema-views';

const VIEW_ID = 'cloudapi-response-view';

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
        compiled ??= fastJson(this.standalone(pointer), { schema: { [VIEW_ID]: this.view }, ajv: { strict: false, logger: false } } as any) as unknown as Serializer;
        return compiled(value);
      };
      this.cache.set(pointer, serializer);
    }
    return serializer;
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
