// Bundles spec/openapi.yaml and every file it references into one document with Redocly's
// bundler (@redocly/openapi-core, the engine of its CLI), in-process. `npm run build`, `npm run
// breaking` and `npm run dev` all bundle through here, so they agree byte for byte.
//
// createBundler() loads the configuration once and keeps each file's parse until invalidate()
// is told it changed: bundling again after one edit takes tens of milliseconds. The bundler
// rewrites the documents it walks (it inlines path items into the root and turns file $refs into
// component $refs), so every run gets its own copy of each parse (PristineResolver).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseResolver, bundle, getLineColLocation, loadConfig, stringifyYaml } from '@redocly/openapi-core';

import { downConvert } from '../lib/down-convert.mjs';
import { specializeFilterParameters } from '../lib/filters.mjs';
import { addRateLimitHeaders } from '../lib/rate-limit-headers.mjs';

export { writeAtomically } from '../lib/files.mjs';

export const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Top-level keys in the order Redocly's CLI writes them; the rest follow in source order.
const TOP_LEVEL_ORDER = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'security', 'tags', 'externalDocs', 'paths', 'webhooks', 'x-webhooks', 'components'];

/** A bundle failure that names the file and the reference or problem. */
export class BundleError extends Error {}

/**
 * Redocly's resolver, keeping each file's parse across runs but handing every run a fresh copy:
 * within a run the same file is one object (as the bundler expects), across runs nothing the
 * bundler changed survives.
 */
class PristineResolver extends BaseResolver {
  parses = new Map(); // absolute file → Promise of { source, parsed } as read from disk

  resolveDocument(base, ref, isRoot = false) {
    const absoluteRef = this.resolveExternalRef(base, ref);
    if (!this.cache.has(absoluteRef)) {
      if (!this.parses.has(absoluteRef)) this.parses.set(absoluteRef, this.loadExternalRef(absoluteRef).then((source) => this.parseDocument(source, isRoot)));
      this.cache.set(absoluteRef, this.parses.get(absoluteRef).then((doc) => ({ ...doc, parsed: structuredClone(doc.parsed) })));
    }
    return this.cache.get(absoluteRef);
  }

  /** Starts a run: the copies of the last one are dropped. */
  nextRun() {
    this.cache.clear();
  }

  forget(file) {
    this.parses.delete(file);
    this.cache.delete(file);
  }
}

/**
 * The bundle's OpenAPI 3.0.3 edition, as spec/dist holds it, with what 3.0 had to drop. Apart
 * from bundle() because it takes longer than the bundle itself: `npm run dev` makes it only for
 * the docs, after the mock has the change.
 */
export function edition30(document) {
  const { document: document30, losses } = downConvert(document);
  const files = {
    'openapi.3.0.yaml': stringifyYaml(document30, { noRefs: true, lineWidth: -1 }),
    'openapi.3.0.json': `${JSON.stringify(document30, null, 2)}\n`,
  };
  return { files, losses };
}

/** The bundle as spec/dist holds it: its YAML and JSON texts, and both by file name. */
export function bundleTexts(document) {
  const yaml = stringifyYaml(document, { noRefs: true, lineWidth: -1 });
  const json = `${JSON.stringify(document, null, 2)}\n`;
  return { yaml, json, files: { 'openapi.yaml': yaml, 'openapi.json': json } };
}

/**
 * @param {{ specDir?: string }} [options]
 * @returns {Promise<{ bundle: (options?: { text?: boolean }) => Promise<{ document: object, yaml?: string, json?: string, files?: Record<string, string> }>,
 *   invalidate: (files: string[]) => void, reload: () => void }>} `bundle({ text: false })` leaves
 *   out the texts (bundleTexts() makes them later): the designer loop's preview needs only the document
 */
export async function createBundler({ specDir: dir = specDir } = {}) {
  const root = path.resolve(dir);
  let config = null;
  let resolver = null;
  return {
    async bundle({ text = true } = {}) {
      config ??= await loadConfig({ configPath: path.join(root, 'redocly.yaml') });
      resolver ??= new PristineResolver(config.resolve);
      resolver.nextRun();
      let result;
      try {
        result = await bundle({ config, ref: path.join(root, 'openapi.yaml'), externalRefResolver: resolver });
      } catch (error) {
        throw new BundleError(`${error.source?.absoluteRef ? `${path.relative(process.cwd(), error.source.absoluteRef)}: ` : ''}${error.message}`);
      }
      // The bundler reports $refs it cannot resolve as problems and leaves them in the document.
      const unresolved = result.problems.filter((p) => p.severity === 'error' || p.ruleId === 'no-unresolved-refs');
      if (unresolved.length) {
        const lines = unresolved.map((p) => {
          const at = p.location[0];
          const { start } = at.pointer === undefined ? {} : getLineColLocation(at);
          return `${path.relative(process.cwd(), at.source.absoluteRef)}${start ? `:${start.line}:${start.col}` : ''}  ${p.message}`;
        });
        throw new BundleError([...new Set(lines)].join('\n'));
      }
      const parsed = addRateLimitHeaders(result.bundle.parsed);
      // Each list's X-Filter gets a schema of exactly its marked fields (lib/filters.mjs).
      specializeFilterParameters(parsed);
      const document = Object.assign(Object.fromEntries(TOP_LEVEL_ORDER.filter((k) => k in parsed).map((k) => [k, parsed[k]])), parsed);
      return text ? { document, ...bundleTexts(document) } : { document };
    },
    invalidate(files) {
      for (const file of files) resolver?.forget(path.resolve(root, file));
    },
    reload() {
      config = null;
      resolver = null;
    },
  };
}

/** The spec folder's path inside its git checkout (`spec`), and the checkout's root. */
export function gitLocation(dir = specDir) {
  const top = execFileSync('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  return { repo: top, prefix: path.relative(top, path.resolve(dir)).split(path.sep).join('/') };
}

/** The commit `ref` names in `repo` (full hash) and its subject line. */
export function commitOf(repo, ref) {
  const [hash, ...subject] = execFileSync('git', ['-C', repo, 'log', '-1', '--format=%H %s', ref, '--'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split(' ');
  return { hash, subject: subject.join(' ') };
}

/**
 * The bundle of the spec as it was at `ref`: the sources and redocly.yaml extracted with git and
 * bundled with that commit's configuration.
 * @param {{ repo: string, prefix: string, ref: string }} where prefix is the spec folder in the repository
 */
export async function bundleAtRef({ repo, prefix, ref }) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-base-'));
  try {
    const wanted = ['openapi.yaml', 'paths', 'components', 'redocly.yaml'].map((p) => (prefix ? `${prefix}/${p}` : p));
    let archive;
    try {
      archive = execFileSync('git', ['-C', repo, 'archive', '--format=tar', ref, '--', ...wanted], { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      throw new BundleError(`cannot read the spec at "${ref}" from ${repo}: ${String(error.stderr || error.message).trim()}`);
    }
    execFileSync('tar', ['-x', '-C', scratch], { input: archive });
    const bundler = await createBundler({ specDir: path.join(scratch, prefix) });
    try {
      return (await bundler.bundle({ text: false })).document;
    } catch (error) {
      throw new BundleError(`the spec at "${ref}" does not bundle:\n${error.message}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
