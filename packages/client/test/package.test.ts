// The built package as consumers see it: an ES module `import` and a CommonJS `require` (real
// child processes), the declarations each kind of TypeScript consumer resolves, and the size budget.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureSize, SIZE_BUDGET_GZIP } from '../scripts/size.mjs';
import { json, startServer, type LocalServer } from './helpers.js';

const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(packageDir, 'test', 'fixtures');
const dist = (file: string) => path.join(packageDir, 'dist', file);
const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));

let server: LocalServer;
beforeAll(async () => {
  for (const file of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts']) {
    if (!existsSync(dist(file))) throw new Error(`${dist(file)} is missing: run \`npm run build\` first (npm test does it through turbo).`);
  }
  server = await startServer((request, response) => {
    if (request.url.pathname === '/v4/regions/us-east' && request.headers.authorization === 'Bearer consumer-token') {
      return json(response, 200, { id: 'us-east', country: 'us', capabilities: [], resolvers: { ipv4: '192.0.2.1', ipv6: '2001:db8::1' }, status: 'ok' });
    }
    json(response, 404, { errors: [{ reason: 'Not found' }] });
  });
});
afterAll(() => server?.close());

async function consume(file: string) {
  const { stdout } = await run(process.execPath, [path.join(fixtures, file), `${server.url}/v4`], { cwd: fixtures, timeout: 20_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

describe('the built package', () => {
  it('is imported by an ES module consumer from dist/index.js', async () => {
    const seen = await consume('consumer.mjs');
    expect(fileURLToPath(seen.resolved)).toBe(dist('index.js'));
    expect(seen).toMatchObject({ region: 'us-east', status: 404, reason: 'Not found', isApiError: true, version: manifest.version });
  });

  it('is required by a CommonJS consumer from dist/index.cjs', async () => {
    const seen = await consume('consumer.cjs');
    expect(seen.resolved).toBe(dist('index.cjs'));
    expect(seen).toMatchObject({ region: 'us-east', status: 404, reason: 'Not found', isApiError: true, version: manifest.version });
  });

  it('gives each kind of TypeScript consumer its declarations, typed from the spec', () => {
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], strict: true, noEmit: true, skipLibCheck: true,
    };
    const resolved = (file: string, mode: ts.ResolutionMode) => ts.resolveModuleName('@cloudapi/client', path.join(fixtures, file), options, ts.sys, undefined, undefined, mode).resolvedModule?.resolvedFileName;
    expect(resolved('consumer-types.mts', ts.ModuleKind.ESNext)).toBe(dist('index.d.ts'));
    expect(resolved('consumer-types.cts', ts.ModuleKind.CommonJS)).toBe(dist('index.d.cts'));
    const program = ts.createProgram([path.join(fixtures, 'consumer-types.mts'), path.join(fixtures, 'consumer-types.cts')], options);
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.basename(d.file.fileName) : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  });

  it('maps import and require, types first, in its exports', () => {
    const require = createRequire(import.meta.url);
    expect(Object.keys(manifest.exports['.'].import)[0]).toBe('types');
    expect(Object.keys(manifest.exports['.'].require)[0]).toBe('types');
    expect(require.resolve('@cloudapi/client')).toBe(dist('index.cjs'));
    expect(manifest.dependencies).toHaveProperty('openapi-fetch');
    expect(manifest.dependencies).toHaveProperty('@cloudapi/types');
  });

  it(`keeps its own code within its size budget, minified and gzipped (${SIZE_BUDGET_GZIP} bytes)`, async () => {
    const { own, whole } = await measureSize();
    expect(own.inputs).toEqual(['dist/index.js']);
    expect(whole.inputs.some((input) => input.includes('node_modules/openapi-fetch/'))).toBe(true);
    expect(whole.inputs.some((input) => input.includes('types/dist/index.js'))).toBe(true);
    expect(own.minified).toBeGreaterThan(own.gzip);
    expect(whole.gzip).toBeGreaterThan(own.gzip);
    expect(own.gzip).toBeLessThanOrEqual(SIZE_BUDGET_GZIP);
  });
});
