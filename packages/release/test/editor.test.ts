// The editor set-up at the repository root: the YAML schema associations of .vscode/settings.json
// name schemas that exist locally and that the spec's files meet, the Spectral extension is pointed
// at the house ruleset, and the root redocly.yaml extends the house config for the spec's root.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/npm.js';

const require = createRequire(path.join(repoRoot, 'spec', 'package.json'));
const Ajv2020 = require('ajv/dist/2020.js').default;
const settings = JSON.parse(readFileSync(path.join(repoRoot, '.vscode', 'settings.json'), 'utf8'));
const associations = Object.entries(settings['yaml.schemas'] as Record<string, string[]>);

/** A validator of the schema at `pointer` inside `schema` (its root's own keywords left out). */
function validatorAt(ajv: any, schema: { $id: string }, pointer: string) {
  ajv.addSchema(schema);
  return ajv.getSchema(`${schema.$id}#${pointer}`);
}

/** The schema an association names, its local $ref followed (the editor does the same). */
function schemaOf(file: string): { schema: object; pointer: string } {
  const raw = JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8'));
  if (!raw.$ref || String(raw.$ref).startsWith('#')) return { schema: raw, pointer: '' };
  const [target, pointer = ''] = String(raw.$ref).split('#');
  const targetFile = path.resolve(path.dirname(path.join(repoRoot, file)), target!);
  expect(existsSync(targetFile), `${file} → ${target}`).toBe(true);
  return { schema: JSON.parse(readFileSync(targetFile, 'utf8')), pointer };
}

describe('YAML schema associations', () => {
  it('cover the root document, every path item file and every schema file', () => {
    const covered = associations.flatMap(([, globs]) => globSync(globs, { cwd: repoRoot }));
    const wanted = globSync(['spec/openapi.yaml', 'spec/paths/**/*.yaml', 'spec/components/schemas/**/*.yaml'], { cwd: repoRoot });
    expect(wanted.length).toBeGreaterThan(50);
    expect(covered.sort()).toEqual(wanted.sort());
  });

  it.each(associations)('%s is met by every file it is associated with', (schemaFile, globs) => {
    const { schema, pointer } = schemaOf(schemaFile);
    const files = globSync(globs, { cwd: repoRoot });
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const failures: string[] = [];
    if (pointer) {
      const validate = validatorAt(ajv, schema as { $id: string }, pointer);
      for (const file of files) if (!validate(parse(readFileSync(path.join(repoRoot, file), 'utf8')))) failures.push(`${file}: ${ajv.errorsText(validate.errors)}`);
    } else if ((schema as { $id?: string }).$id === 'https://json-schema.org/draft/2020-12/schema') {
      for (const file of files) if (!ajv.validateSchema(parse(readFileSync(path.join(repoRoot, file), 'utf8')))) failures.push(`${file}: ${ajv.errorsText(ajv.errors)}`);
    } else {
      const validate = ajv.compile(schema);
      for (const file of files) if (!validate(parse(readFileSync(path.join(repoRoot, file), 'utf8')))) failures.push(`${file}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(files.length).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });

  it('catch a path item file that breaks its schema (negative control)', () => {
    const [schemaFile] = associations.find(([, globs]) => globs.some((glob) => glob.startsWith('spec/paths/')))!;
    const { schema, pointer } = schemaOf(schemaFile);
    const validate = validatorAt(new Ajv2020({ strict: false, validateFormats: false }), schema as { $id: string }, pointer);
    expect(validate({ get: { responses: { 200: { description: 'ok' } } } })).toBe(true);
    expect(validate({ get: { responses: 'none' } })).toBe(false);
  });
});

describe('linters found from the root', () => {
  it('the Spectral extension is pointed at the house ruleset for sources', () => {
    expect(existsSync(path.join(repoRoot, settings['spectral.rulesetFile']))).toBe(true);
    expect(settings['spectral.rulesetFile']).toBe('spec/style/spectral-sources.yaml');
  });

  it('the root redocly.yaml extends the house config and names the spec root', () => {
    const config = parse(readFileSync(path.join(repoRoot, 'redocly.yaml'), 'utf8'));
    expect(config.extends).toEqual(['./spec/redocly.yaml']);
    expect(Object.keys(config)).toEqual(['extends', 'apis']);
    const roots = Object.values(config.apis as Record<string, { root: string }>).map(({ root }) => root);
    expect(roots).toEqual(['spec/openapi.yaml']);
    for (const root of roots) expect(existsSync(path.join(repoRoot, root))).toBe(true);
  });

  it('.vscode/extensions.json recommends the extensions these files are for', () => {
    const { recommendations } = JSON.parse(readFileSync(path.join(repoRoot, '.vscode', 'extensions.json'), 'utf8'));
    expect(recommendations).toEqual(expect.arrayContaining(['redhat.vscode-yaml', 'Redocly.openapi-vs-code', 'stoplight.spectral', 'EditorConfig.EditorConfig']));
  });
});
