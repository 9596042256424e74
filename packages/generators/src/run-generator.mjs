// The generators' host: a child process of src/generate.mjs that runs one generator over one
// document per message it is sent, `{ name, input, dir }`, one after the other: it writes the
// generator's TypeScript under <dir>/<slug of name>/ (working in <dir>) and answers `{ files }`
// (the .ts files written) or `{ error }`. Each generator is called through its own programmatic
// API with its default output where it has one. A generator's library, once loaded, stays loaded
// for the next document (loading one is about a second of CPU, TypeScript included).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const slug = (name) => name.replace(/^@/, '').replace(/\W+/g, '-');

let typedOpenapiCwd;

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
  // (README). typed-openapi resolves `output` against the working folder it found when it was
  // loaded (this host's first typed-openapi run), not the one of this run.
  'typed-openapi': async (document, input, out) => {
    typedOpenapiCwd ??= process.cwd();
    const { generateClientFiles } = await import('typed-openapi/node');
    await generateClientFiles(input, { runtime: 'zod', output: path.relative(typedOpenapiCwd, path.join(out, 'typed-openapi.ts')), tanstack: false, schemasOnly: false, includeClient: false, format: false });
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

/** Runs one generator; the answer for the parent. */
async function generate({ name, input, dir }) {
  try {
    if (!RUN[name]) throw new Error(`no generator named ${name}: one of ${Object.keys(RUN).join(', ')}`);
    process.chdir(dir);
    const out = path.join(dir, slug(name));
    mkdirSync(out, { recursive: true });
    await RUN[name](JSON.parse(readFileSync(input, 'utf8')), input, out);
    const files = tsFiles(out);
    if (!files.length) throw new Error(`${name} wrote no TypeScript file into ${out}`);
    return { files };
  } catch (error) {
    return { error: `${name} failed: ${error?.stack ?? error}`.slice(0, 4000) };
  }
}

// The parent sends the next run only after this one's answer. A generator may leave a handle open
// (a watcher, a timer): the parent ends this process when it needs it no more.
process.on('message', async (job) => process.send(await generate(job)));
