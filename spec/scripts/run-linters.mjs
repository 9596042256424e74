// Runs Redocly and Spectral in-process over OpenAPI files and returns their findings in one
// shape: { tool, rule, severity, file, line, column, pointer, message }, where `pointer` is the
// JSON pointer of the offending node inside `file`. Used by `npm run lint`, the style-guide tests
// and `npm run dev`, so all three exercise exactly the same engines and configuration.
//
// The configurations are loaded once per `createLinters()` (Spectral bundles a ruleset and its
// custom functions, which costs about a second), and Redocly keeps each file's parse until
// `invalidate()` is told the file changed, so linting again after one edit re-reads one file.
// Redocly runs through its library, @redocly/openapi-core, the engine inside its CLI; Spectral
// through @stoplight/spectral-core with the ruleset loader its docs give for use from code.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatPointer } from '../lib/json-pointer.mjs';
import { shareSpectralAjv } from './spectral-ajv.mjs';
import { startWorker } from './worker-rpc.mjs';

const require = createRequire(import.meta.url);

export const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'];


/**
 * @param {{ specDir?: string }} [options] the folder holding redocly.yaml, .spectral.yaml and style/
 * @returns {Promise<{ lint: (file: string, options?: { text?: string }) => Promise<object[]>,
 *   invalidate: (files: string[]) => void, reload: () => void }>}
 *   `lint(file)` lints one document (absolute, or relative to specDir); `text` replaces its content
 *   (references still resolve from its folder). `invalidate` drops the parses of changed files;
 *   `reload` re-reads the configurations (after the style guide changed).
 */
export async function createLinters({ specDir: dir = specDir } = {}) {
  // Loaded here, not on import: a caller that only starts a lint worker does not pay for them.
  const { BaseResolver, getLineColLocation, lintDocument, loadConfig, makeDocumentFromString } = await import('@redocly/openapi-core');
  const { Spectral, Document } = require('@stoplight/spectral-core');
  const Parsers = require('@stoplight/spectral-parsers');
  const { createHttpAndFileResolver } = require('@stoplight/spectral-ref-resolver');
  const { bundleAndLoadRuleset } = require('@stoplight/spectral-ruleset-bundler/with-loader');
  const { fetch } = require('@stoplight/spectral-runtime');
  shareSpectralAjv(); // every lint compiled the same schemas again (spectral-ajv.mjs)
  const root = path.resolve(dir);
  let redoclyConfig = null;
  let resolver = null;
  let rulesets = new Map();

  // The multi-file sources (openapi.yaml of the spec folder) get the house ruleset plus the
  // overrides only they need (style/spectral-sources.yaml); everything else, the bundle included,
  // the house ruleset.
  const rulesetFor = (file) => (file === path.join(root, 'openapi.yaml') ? 'style/spectral-sources.yaml' : '.spectral.yaml');
  const ruleset = (name) => {
    if (!rulesets.has(name)) rulesets.set(name, bundleAndLoadRuleset(path.join(root, name), { fs, fetch }));
    return rulesets.get(name);
  };
  const redocly = async () => {
    redoclyConfig ??= loadConfig({ configPath: path.join(root, 'redocly.yaml') });
    const config = await redoclyConfig;
    resolver ??= new BaseResolver(config.resolve);
    return config;
  };

  async function runRedocly(file, text) {
    const config = await redocly();
    const document = text === undefined ? await resolver.resolveDocument(null, file, true) : makeDocumentFromString(text, file);
    if (document instanceof Error) throw document;
    const problems = await lintDocument({ document, config, externalRefResolver: resolver });
    return problems.map((p) => {
      const location = p.location[0];
      const { start } = getLineColLocation(location);
      return {
        tool: 'redocly',
        rule: p.ruleId,
        severity: p.severity === 'error' ? 'error' : 'warning',
        file: location.source.absoluteRef,
        line: start?.line ?? 1,
        column: start?.col ?? 1,
        pointer: !location.pointer || location.pointer === '#/' ? '#' : location.pointer, // Redocly writes the root as #/
        message: p.message,
      };
    });
  }

  async function runSpectral(file, text) {
    // A fresh resolver every run: one reused across runs resolves relative $refs of later runs
    // against the wrong folder.
    const spectral = new Spectral({ resolver: createHttpAndFileResolver() });
    spectral.setRuleset(await ruleset(rulesetFor(file)));
    const content = text ?? await fs.promises.readFile(file, 'utf8');
    const results = await spectral.run(new Document(content, Parsers.Yaml, file));
    return results.map((r) => ({
      tool: 'spectral',
      rule: r.code,
      severity: SPECTRAL_SEVERITY[r.severity] || 'error',
      file: path.resolve(root, r.source || file),
      line: r.range.start.line + 1,
      column: r.range.start.character + 1,
      pointer: formatPointer(r.path, { fragment: true }),
      message: r.message,
    }));
  }

  return {
    async lint(target, { text } = {}) {
      const file = path.resolve(root, target);
      const results = await Promise.all([runRedocly(file, text), runSpectral(file, text)]);
      return results.flat();
    },
    invalidate(files) {
      for (const file of files) resolver?.cache.delete(path.resolve(root, file));
    },
    reload() {
      redoclyConfig = null;
      resolver = null;
      rulesets = new Map();
    },
  };
}

/** Lints each file with one set of linters; the findings of all files together. */
export async function lintFiles(files, options) {
  const linters = await createLinters(options);
  const results = [];
  for (const file of files) results.push(...await linters.lint(file));
  return results;
}

/**
 * The same linters in a worker thread, so linting runs beside other work on another core and a
 * long lint does not hold up the caller. Same methods as createLinters(), all async, plus close().
 */
export function startLintWorker({ specDir: dir = specDir } = {}) {
  const worker = startWorker(new URL('./lint-worker.mjs', import.meta.url), { specDir: dir });
  return {
    lint: (file, options) => worker.call('lint', file, options),
    invalidate: (files) => worker.call('invalidate', files),
    reload: () => worker.call('reload'),
    close: () => worker.close(),
  };
}
