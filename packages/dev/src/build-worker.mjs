// The bundle side of the designer loop, in a worker thread: Redocly's bundler with its parses
// kept between saves, what the mock and the open docs pages need derived from the bundle, and the
// comparison with HEAD. The main thread only writes files and prints, so the lint of a change (in
// its own worker) is printed the moment it is ready, whatever the bundle is doing.
//
// The preview first: build() answers with the mock's document, docs() with the pages' copy; the
// texts of spec/dist (files(), edition30()) and the comparison come after, when asked.
import { workerData } from 'node:worker_threads';
import { compareDocuments } from '@cloudapi/spec/breaking';
import { BundleError, bundleTexts, createBundler, edition30 } from '@cloudapi/spec/bundler';
import { serveMethods } from '@cloudapi/spec/worker-rpc';
import { pageData } from '@cloudapi/docs';
import { deriveMockDocument } from '@cloudapi/mock/derive';
import { createBaseline } from './baseline.mjs';

const { specDir, baseRef } = workerData;
let latest = null; // the last document that bundled
let latestJson = null; // ...as compact JSON, to tell whether a save changed it
let baseline = null; // made once the first bundle exists: it is the fallback base outside git

async function comparedWith() {
  baseline ??= createBaseline({ specDir, ref: baseRef, startDocument: latest });
  return baseline.get();
}

serveMethods(createBundler({ specDir }).then((bundler) => ({
  /**
   * Bundles after `invalidate` changed: { ok, changed, mockJson } (mockJson when changed) or
   * { ok: false, message }.
   */
  async build({ invalidate = [], reload = false } = {}) {
    if (reload) bundler.reload();
    bundler.invalidate(invalidate);
    let document;
    try {
      ({ document } = await bundler.bundle({ text: false }));
    } catch (error) {
      if (error instanceof BundleError) return { ok: false, message: error.message };
      throw error;
    }
    const json = JSON.stringify(document);
    if (json === latestJson) return { ok: true, changed: false };
    [latest, latestJson] = [document, json];
    return { ok: true, changed: true, mockJson: `${JSON.stringify(deriveMockDocument(document), null, 2)}\n` };
  },
  /** What the docs page shows of the last bundle, as JSON: `{ definition, tryIt }` (@cloudapi/docs pageData). */
  async docs() {
    return JSON.stringify(pageData(latest));
  },
  /** The last bundle's texts by file name, as spec/dist holds them. */
  async files() {
    return bundleTexts(latest).files;
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
