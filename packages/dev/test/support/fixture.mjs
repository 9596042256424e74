// A small spec laid out like spec/ (a root, one file per path item, one file per component), made
// from the style guide's clean base document, in a temp folder that is its own git repository:
// the designer loop runs on it as it runs on the real spec, without touching the real one.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { baseDocument } from '../../../../spec/test/fixtures/style-base.mjs';

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../spec');
const MOVED = ['schemas', 'parameters', 'responses'];

const pathFile = (key) => `paths/${key.replace(/^\//, '').replace(/\//g, '_')}.yaml`;
const componentFile = (kind, name) => `components/${kind}/${name}.yaml`;

/** `value` with every `#/components/<kind>/<Name>` reference turned into a file reference from `file`. */
function fileRefs(value, file) {
  if (Array.isArray(value)) return value.map((v) => fileRefs(v, file));
  if (!value || typeof value !== 'object') return value;
  const match = typeof value.$ref === 'string' && /^#\/components\/([^/]+)\/([^/]+)$/.exec(value.$ref);
  if (match && MOVED.includes(match[1])) return { ...value, $ref: path.posix.relative(path.posix.dirname(file), componentFile(match[1], match[2])) };
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fileRefs(v, file)]));
}

/** Writes the split spec and the style guide into `dir` and commits it; returns the files written. */
export function writeSplitSpec(dir) {
  const document = baseDocument();
  // As the real spec: the header's JSON is a shared Filter schema in the sources, which the bundle
  // step specializes per list into components.x-filter-schemas.
  delete document.components['x-filter-schemas'];
  document.components.schemas.Filter = { type: 'object', description: 'A filter of a list.' };
  document.components.parameters.XFilter.schema.contentSchema = { $ref: '#/components/schemas/Filter' };
  const files = {};
  for (const [key, item] of Object.entries(document.paths)) {
    files[pathFile(key)] = fileRefs(item, pathFile(key));
    document.paths[key] = { $ref: pathFile(key) };
  }
  for (const kind of MOVED) {
    for (const [name, component] of Object.entries(document.components[kind] ?? {})) {
      files[componentFile(kind, name)] = fileRefs(component, componentFile(kind, name));
    }
    delete document.components[kind];
  }
  files['openapi.yaml'] = document;
  for (const [file, value] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), stringify(value));
  }
  // The style guide's functions import the spec's shared modules (lib/schema-walk.mjs,
  // lib/json-pointer.mjs) relatively, as the published package ships them beside style/.
  for (const part of ['redocly.yaml', '.spectral.yaml', 'style', 'lib']) cpSync(path.join(specDir, part), path.join(dir, part), { recursive: true });
  const git = (...args) => execFileSync('git', ['-C', dir, ...args], { stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '-qm', 'the spec before the session');
  return Object.keys(files);
}
