// The client's generic types against the bundle, for whatever it holds: `ListPath` is exactly the
// GET operations whose success body is a page (data, page, pages, results), and each method's
// `data` is exactly the operation's success schema. Checked by compiling a file generated here.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBundle } from './helpers.js';

const bundle = loadBundle();
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const PAGE_FIELDS = ['data', 'page', 'pages', 'results'];

function resolve(node: any): any {
  let current = node;
  for (let i = 0; current?.$ref && i < 32; i++) current = current.$ref.replace(/^#\//, '').split('/').reduce((n: any, p: string) => n?.[p.replace(/~1/g, '/').replace(/~0/g, '~')], bundle);
  return current;
}

/** The names a schema requires, through $ref and allOf. */
function requiredOf(schema: any): Set<string> {
  const resolved = resolve(schema);
  return new Set([...(resolved?.required ?? []), ...(resolved?.allOf ?? []).flatMap((part: any) => [...requiredOf(part)])]);
}

/** Whether a schema only admits JSON objects: `type: object`, or an `allOf` with such a part. */
function objectOnly(schema: any): boolean {
  const resolved = resolve(schema);
  return resolved?.type === 'object' || (resolved?.allOf ?? []).some(objectOnly);
}

interface Op { route: string; method: string; status: string; page: boolean; successes: Array<{ status: string; media: string[]; object: boolean }> }
const ops: Op[] = Object.entries(bundle.paths as Record<string, any>).flatMap(([route, item]) => METHODS.filter((m) => item[m]).map((method) => {
  const responses = Object.entries(item[method].responses as Record<string, unknown>).filter(([code]) => code.startsWith('2'));
  const [status, response] = responses[0]!;
  const schema = resolve(response)?.content?.['application/json']?.schema;
  const required = requiredOf(schema);
  const successes = responses.map(([code, raw]) => {
    const content = resolve(raw)?.content ?? {};
    return { status: code, media: Object.keys(content), object: objectOnly(content['application/json']?.schema) };
  });
  return { route, method, status, page: method === 'get' && PAGE_FIELDS.every((f) => required.has(f)), successes };
}));
const listPaths = ops.filter((op) => op.page).map((op) => op.route);

const dir = mkdtempSync(path.join(packageDir, 'test', '.derived-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Compiles the generated files together, in one program: the client's and the generated types are
 * checked once for all of them. Answers each file's diagnostics, by the name it was given.
 */
function compileAll(sources: Record<string, string>): Map<string, string[]> {
  const files = Object.entries(sources).map(([name, source]) => {
    const file = path.join(dir, `${name}.ts`);
    writeFileSync(file, source);
    return [name, file] as const;
  });
  const program = ts.createProgram(files.map(([, file]) => file), {
    strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [],
  });
  const text = (d: ts.Diagnostic) => `${d.file ? `line ${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  return new Map(files.map(([name, file]) => [name, ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map(text)]));
}

const header = [
  "import type { ApiResult, ListPath, Operation } from '../../src/index.js';",
  "import type { paths } from '@cloudapi/types';",
  'type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends (<X>() => X extends B ? 1 : 2) ? true : false;',
  'type Expect<X extends true> = X;',
  'type Data<P extends keyof paths, M extends string, S extends number> = paths[P][M & keyof paths[P]] extends { responses: { [K in S]: { content: { "application/json": infer B } } } } ? B : never;',
];
const quote = (value: string) => JSON.stringify(value);
const union = (values: string[]) => (values.length ? values.map(quote).join(' | ') : 'never');

// The three generated files: the types to prove, the messages a wrong call must get, and a wrong
// expectation that must not compile.
const withParams = listPaths.find((route) => route.includes('{')) ?? '(no list with path parameters)';
const single = ops.find((op) => op.method === 'get' && !op.page && op.route.includes('{'))?.route ?? '(no single GET with path parameters)';
const sources = {
  derived: [
    ...header,
    `export type Lists = Expect<Equal<ListPath, ${union(listPaths)}>>;`,
    ...ops.map((op, i) => `export type Op${i} = Expect<Equal<NonNullable<ApiResult<Operation<${quote(op.route)}, ${quote(op.method)}>>['data']>, Data<${quote(op.route)}, ${quote(op.method)}, ${op.status}>>>;`),
  ].join('\n'),
  wrongCalls: [
    "import { createClient } from '../../src/index.js';",
    "const client = createClient({ baseUrl: 'http://127.0.0.1:4020/v4' });",
    `void client.listAll(${quote(withParams)});`,
    `void client.paginate(${quote(single)}, {} as never);`,
  ].join('\n'),
  wrongLists: [...header, `export type Lists = Expect<Equal<ListPath, ${union([...listPaths.slice(1), '/volumes/{volumeId}'])}>>;`].join('\n'),
};
let compiled: Map<string, string[]> | undefined;
const diagnosticsOf = (name: keyof typeof sources): string[] => (compiled ??= compileAll(sources)).get(name)!;

describe('generic types derived from the bundle', () => {
  it('declares every success as one JSON object, the only success the client accepts', () => {
    // The client makes an ApiError of any 2xx body that is not a JSON object (an empty body, an
    // HTML page, `null`). An operation answering something else needs the client taught first.
    const others = ops.flatMap((op) => op.successes.filter((s) => s.media.join() !== 'application/json' || !s.object)
      .map((s) => `${op.method.toUpperCase()} ${op.route} ${s.status}: ${s.media.join(', ') || 'no body'}${s.object ? '' : ' (not an object)'}`));
    expect(others).toEqual([]);
    expect(objectOnly({ type: 'array' })).toBe(false);
    expect(objectOnly({ allOf: [{ $ref: '#/components/schemas/Volume' }, { type: 'object' }] })).toBe(true);
  });

  it('declares every error body as the spec\'s ErrorResponse, the one the client recognises at run time', () => {
    // ApiError keeps `body` parsed only when it is `{ errors: [{ field?, reason }] }`, else its text:
    // a declared error response with another body would be typed as a body the client never gives.
    const others = ops.flatMap((op) => Object.entries(bundle.paths[op.route][op.method].responses as Record<string, any>)
      .filter(([code]) => !code.startsWith('2'))
      .filter(([, raw]) => Object.entries(resolve(raw)?.content ?? {}).some(([media, content]: [string, any]) => media !== 'application/json' || content.schema?.$ref !== '#/components/schemas/ErrorResponse'))
      .map(([code]) => `${op.method.toUpperCase()} ${op.route} ${code}`));
    expect(others).toEqual([]);
    expect(ops.filter((op) => Object.keys(bundle.paths[op.route][op.method].responses).includes('404')).length).toBeGreaterThan(0);
  });

  it('finds the list operations from their response shape', () => {
    expect(listPaths.length).toBeGreaterThan(0);
    expect(ops.some((op) => op.method === 'get' && !op.page)).toBe(true);
  });

  it('types ListPath as exactly those paths, and each call\'s data as its success schema', () => {
    expect(diagnosticsOf('derived')).toEqual([]);
  });

  it('says what is wrong with a list call on its path argument, not "Expected 2 arguments"', () => {
    const names = [...withParams.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).join(', ');
    expect(diagnosticsOf('wrongCalls')).toEqual([
      expect.stringContaining(`line 3: Argument of type '${quote(withParams)}' is not assignable to parameter of type '"${withParams} needs its path parameters: pass { params: { path: { ${names} } } }"'`),
      expect.stringContaining(`line 4: Argument of type '${quote(single)}' is not assignable to parameter of type '"${single} is not a list: its GET answers one object`),
    ]);
  });

  it('fails to compile when the expected list paths differ (the check can fail)', () => {
    expect(diagnosticsOf('wrongLists').join('\n')).toMatch(/does not satisfy the constraint 'true'/);
  });
});
