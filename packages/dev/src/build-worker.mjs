// The bundle side of the designer loop, in a worker thread: Redocly's bundler with its parses
// kept between saves, the mock's document derived from the bundle, and the comparison with HEAD.
// The main thread only writes files and prints, so the lint of a change (in its own worker) is
// printed the moment it is ready, whatever the bundle is doing.
import { workerData } from 'node:worker_threads';
import { compareDocuments } from '@cloudapi/spec/breaking';
import { BundleError, createBundler, edition30 } from '@cloudapi/spec/bundler';
import { serveMethods } from '@cloudapi/spec/worker-rpc';
import { deriveMockDocument } from '@cloudapi/mock/derive';
import { createBaseline } from './baseline.mjs';

const { specDir, baseRef } = workerData;
let latest = null; // the last document that bundled
let baseline = null; // made once the first bundle exists: it is the fallback base outside git

async function comparedWith() {
  baseline ??= createBaseline({ specDir, ref: baseRef, startDocument: latest });
  return baseline.get();
}

serveMethods(createBundler({ specDir }).then((bundler) => ({
  /**
   * Bundles after `invalidate` changed: { ok, files, mockJson } (files: the 3.1 bundle by file
   * name; its 3.0 edition comes from edition30()) or { ok: false, message }.
   */
  async build({ invalidate = [], reload = false } = {}) {
    if (reload) bundler.reload();
    bundler.invalidate(invalidate);
    try {
      const { document, files } = await bundler.bundle();
      latest = document;
      return { ok: true, files, mockJson: `${JSON.stringify(deriveMockDocument(document), null, 2)}\n` };
    } catch (error) {
      if (error instanceof BundleError) return { ok: false, message: error.message };
      throw error;
    }
  },
  /** The last bundle's OpenAPI 3.0.3 edition, by file name (the docs offer it for download). */
  async edition30() {
    return edition30(latest).files;
  },
  /** What the last bundle breaks compared with `baseRef`: { findings, added, base, moved }. */
  async compare() {
    const against = await comparedWith();
    return { ...compareDocuments(against.document, latest), base: against.name, moved: against.moved };
  },
  /** The name of what changes are compared with, e.g. `HEAD (1a2b3c4 "subject")`. */
  async base() {
    return (await comparedWith()).name;
  },
})));
