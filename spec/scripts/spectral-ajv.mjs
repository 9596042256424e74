// Spectral's `schema` function (behind oas3-schema, the example rules and any rule that checks a
// value against a JSON Schema) builds new Ajv instances for every run, so every lint compiled
// OpenAPI's own meta-schema and every rule's schema again: half of a lint of one path item in the
// designer loop. shareSpectralAjv() makes the runs of this thread share one set of instances:
// a schema object seen before (a meta-schema, a rule's options) is compiled once.
//
// What stays as Spectral had it: a schema of the linted document is a new object on every run and
// is compiled on every run; a schema with an `$id` that names a different object than the one
// compiled under that `$id` before (an edited document schema) is compiled in instances of its
// own, never answered from the old one. Ajv keeps every schema it compiled, so the shared set is
// replaced every GENERATION runs: memory stays bounded however long `npm run dev` runs.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const GENERATION = 50;

export const spectralAjvStats = { runs: 0, sharedCalls: 0 };

/** The `schema/ajv.js` modules of the spectral-functions the house rules and spectral:oas load. */
function ajvModules() {
  const from = (name, dir) => path.dirname(require.resolve(name, { paths: [dir] }));
  const bundlerDir = from('@stoplight/spectral-ruleset-bundler', path.dirname(require.resolve('@stoplight/spectral-core')));
  const rulesetsDir = from('@stoplight/spectral-rulesets', bundlerDir);
  const dirs = new Set([from('@stoplight/spectral-functions', bundlerDir), from('@stoplight/spectral-functions', rulesetsDir)]);
  return [...dirs].map((functionsDir) => {
    const ajvModule = require(path.join(functionsDir, 'schema', 'ajv.js'));
    if (typeof ajvModule.createAjvInstances !== 'function') {
      throw new Error(`@stoplight/spectral-functions no longer exports createAjvInstances from schema/ajv.js in ${functionsDir}: update spec/scripts/spectral-ajv.mjs`);
    }
    return ajvModule;
  });
}

export function shareSpectralAjv() {
  for (const ajvModule of ajvModules()) share(ajvModule);
}

// The `schema` function reads `createAjvInstances` through the module's exports object at each
// run, so replacing the export reaches it.
function share(ajvModule) {
  if (ajvModule.createAjvInstances.shared) return;
  const perRun = ajvModule.createAjvInstances;
  let shared = null;
  let schemaById = new Map(); // $id → the schema object compiled under it in `shared`

  function sharedInstances() {
    if (spectralAjvStats.runs++ % GENERATION === 0) {
      shared = perRun();
      schemaById = new Map();
    }
    const instances = shared;
    const ids = schemaById;
    let own = null; // instances for the schemas `shared` cannot answer, made when first needed
    return (schema, dialect, allErrors) => {
      const id = typeof schema?.$id === 'string' ? `${dialect}|${allErrors}|${schema.$id}` : null;
      if (id && ids.has(id) && ids.get(id) !== schema) {
        own ??= perRun();
        return own(schema, dialect, allErrors);
      }
      if (id) ids.set(id, schema);
      spectralAjvStats.sharedCalls += 1;
      return instances(schema, dialect, allErrors);
    };
  }
  sharedInstances.shared = true;
  ajvModule.createAjvInstances = sharedInstances;
}
