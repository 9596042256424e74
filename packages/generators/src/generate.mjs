// Runs each code generator over an OpenAPI document and writes its TypeScript into a folder.
// Everything runs offline: the input is a local file and no generator is asked to fetch.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@hey-api/openapi-ts';
import { generateSource } from 'oazapfts';
import openapiTS, { astToString } from 'openapi-typescript';

/** The generators under test: name, and how to turn `input` (a JSON file) into `<dir>/<name>.ts`. */
export const GENERATORS = {
  'openapi-typescript': async (document, input, dir) => {
    const file = path.join(dir, 'openapi-typescript.ts');
    writeFileSync(file, astToString(await openapiTS(document)));
    return file;
  },
  '@hey-api/openapi-ts': async (document, input, dir) => {
    const out = path.join(dir, 'hey-api');
    await createClient({ input, output: { path: out }, plugins: ['@hey-api/typescript'], logs: { level: 'silent' } });
    return path.join(out, 'types.gen.ts');
  },
  oazapfts: async (document, input, dir) => {
    const file = path.join(dir, 'oazapfts.ts');
    writeFileSync(file, await generateSource(input, { allSchemas: true }));
    return file;
  },
};

/** Generates with every generator; returns { name: { file, ms } }. */
export async function generateAll(document, dir) {
  const input = path.join(dir, 'openapi.json');
  writeFileSync(input, JSON.stringify(document));
  const results = {};
  for (const [name, generate] of Object.entries(GENERATORS)) {
    const started = Date.now();
    results[name] = { file: await generate(document, input, dir), ms: Date.now() - started };
  }
  return results;
}
