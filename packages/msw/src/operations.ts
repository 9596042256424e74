// What the handlers know of each operation, derived from the bundle once: its route, the
// parameters and bodies to validate, the examples of each response, and whether it needs a token.
import { bodiesOf, deref, mediaExamples, operations as walkOperations } from '@cloudapi/spec/walk';
import { bundle } from './bundle.js';

export type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

export interface MockOperation {
  operationId: string;
  method: Method;
  /** The path as the bundle writes it: `/volumes/{volumeId}`. */
  path: string;
  /** The same in MSW's form: `/volumes/:volumeId`. */
  route: string;
  parameters: { name: string; in: string; required: boolean; schemaPointer: string }[];
  requestBody: { required: boolean; media: Map<string, string> } | null;
  /** The first 2xx status. */
  successStatus: number;
  /** status → the named JSON examples of that response (first is the default). */
  examples: Map<number, { name: string; value: unknown }[]>;
  /** A bearer token is needed (not public, not optional). */
  secured: boolean;
}

function describe(): MockOperation[] {
  const list: MockOperation[] = [];
  for (const op of walkOperations(bundle)) {
    const operation = op.operation;
    const examples = new Map<number, { name: string; value: unknown }[]>();
    for (const [status, raw] of Object.entries<any>(operation.responses ?? {})) {
      const [response] = deref(bundle, raw, '');
      const media = Object.entries<any>(response?.content ?? {}).find(([type]) => /json/.test(type))?.[1];
      examples.set(Number(status), media ? mediaExamples(bundle, media).map(({ name, value }: { name: string; value: unknown }) => ({ name, value })) : []);
    }
    const bodies = bodiesOf(bundle, op);
    const [body] = operation.requestBody ? deref(bundle, operation.requestBody, '') : [null];
    const requirements: Record<string, string[]>[] = operation.security ?? bundle.security ?? [];
    list.push({
      operationId: operation.operationId,
      method: op.method as Method,
      path: op.path,
      route: op.path.replace(/\{([^}]+)\}/g, ':$1'),
      parameters: op.parameters
        .filter((p: any) => p.in === 'path' || p.in === 'query')
        .map((p: any) => ({ name: p.name, in: p.in, required: Boolean(p.required) || p.in === 'path', schemaPointer: `${p.pointer}/schema` })),
      requestBody: body
        ? { required: Boolean(body.required), media: new Map(bodies.filter((b: any) => b.kind === 'request').map((b: any) => [b.mediaType, b.schemaPointer])) }
        : null,
      successStatus: Number(Object.keys(operation.responses ?? {}).filter((s) => /^2\d\d$/.test(s)).sort()[0] ?? 200),
      examples,
      secured: requirements.length > 0 && !requirements.some((r) => Object.keys(r).length === 0),
    });
  }
  // More literal segments first, so `/compute/kernels` is tried before a template with a parameter there.
  const literals = (path: string) => path.split('/').filter((s) => s && !s.startsWith('{')).length;
  return list.sort((a, b) => literals(b.path) - literals(a.path));
}

let described: MockOperation[] | null = null;
/** Every operation of the bundle, most specific route first. */
export function mockOperations(): MockOperation[] {
  return (described ??= describe());
}

export function operationAt(method: Method, path: string): MockOperation {
  const op = mockOperations().find((o) => o.method === method && o.path === path);
  if (!op) throw new TypeError(`${method.toUpperCase()} ${path} is not an operation of the API`);
  return op;
}
