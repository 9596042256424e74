// One generator over one document, in a child process of src/generate.mjs:
//
//   node run-generator.mjs <name> <input.json> <dir>
//
// writes the generator's TypeScript under <dir>/<slug of name>/ and sends the parent
// `{ files }` (the .ts files written) or `{ error }`. Each generator is called through its own
// programmatic API with its default output where it has one.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const slug = (name) => name.replace(/^@/, '').replace(/\W+/g, '-');

/** name → async (document, input, out) that writes into the folder `out`. */
const RUN = {
  'openapi-typescript': async (document, input, out) => {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    writeFileSync(path.join(out, 'openapi-typescript.ts'), astToString(await openapiTS(document)));
  },
  '@hey-api/openapi-ts': async (document, input, out) => {
    const { createClient } = await import('@hey-api/openapi-ts');
    await createClient({ input, output: { path: out }, plugins: ['@hey-api/typescript'], logs: { level: 'silent' } });
  },
  oazapfts: async (document, input, out) => {
    const { generateSource } = await import('oazapfts');
    writeFileSync(path.join(out, 'oazapfts.ts'), await generateSource(input, { allSchemas: true }));
  },
  // A Zodios client: zod schemas of every component and the endpoints' description.
  'openapi-zod-client': async (document, input, out) => {
    const { generateZodClientFromOpenAPI } = await import('openapi-zod-client');
    // withAlias: each endpoint named after its operationId.
    await generateZodClientFromOpenAPI({ openApiDoc: document, distPath: path.join(out, 'openapi-zod-client.ts'), options: { withAlias: true } });
  },
  // `-r zod`: types, zod schemas and the endpoints map. Not its `ApiClient` class, whose methods
  // take `z.infer` of a plain object and compile with no zod release, whatever the document
  // (README). typed-openapi resolves `output` against the working folder.
  'typed-openapi': async (document, input, out) => {
    const { generateClientFiles } = await import('typed-openapi/node');
    await generateClientFiles(input, { runtime: 'zod', output: path.relative(process.cwd(), path.join(out, 'typed-openapi.ts')), tanstack: false, schemasOnly: false, includeClient: false, format: false });
  },
  // The fetch client (orval's default, axios, needs a runtime the probe does not bring).
  orval: async (document, input, out) => {
    const { generate } = await import('orval');
    await generate({ input: { target: input }, output: { target: path.join(out, 'orval.ts'), client: 'fetch', mode: 'single' } });
  },
  // The TypeScript plugin (types of every schema and operation) over the OpenAPI adapter.
  kubb: async (document, input, out) => {
    const { safeBuild } = await import('@kubb/core');
    const { pluginOas } = await import('@kubb/plugin-oas');
    const { pluginTs } = await import('@kubb/plugin-ts');
    const { failedPlugins, error } = await safeBuild({
      config: { root: out, input: { path: input }, output: { path: '.', clean: false, barrelType: false }, plugins: [pluginOas({ validate: false }), pluginTs()] },
    });
    const failure = error ?? [...failedPlugins][0]?.error;
    if (failure) throw failure;
  },
};

function tsFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

const [name, input, dir] = process.argv.slice(2);
// Sent, then gone: a generator may leave a handle open (a watcher, a timer).
const answer = (message) => process.send(message, () => process.exit(0));
try {
  if (!RUN[name]) throw new Error(`no generator named ${name}: one of ${Object.keys(RUN).join(', ')}`);
  const out = path.join(dir, slug(name));
  mkdirSync(out, { recursive: true });
  await RUN[name](JSON.parse(readFileSync(input, 'utf8')), input, out);
  const files = tsFiles(out);
  if (!files.length) throw new Error(`${name} wrote no TypeScript file into ${out}`);
  answer({ files });
} catch (error) {
  answer({ error: `${name} failed: ${error?.stack ?? error}`.slice(0, 4000) });
}
