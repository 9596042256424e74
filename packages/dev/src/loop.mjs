// The designer loop behind `npm run dev`. Each save of a spec file goes through these stages, each
// printed the moment it is ready with its time since the save:
//
//   lint      the change, in a worker thread whose linters stay loaded (src/lint-stages.mjs)
//   bundle    in a second worker (src/build-worker.mjs), re-reading only the edited files
//   mock, docs, breaking   the mock serving it, the open docs pages showing it, what it breaks
//             compared with HEAD (src/preview-stages.mjs)
// (spec/dist is written when the designer pauses: nothing above needs its texts)
//
// The main thread only writes files, starts processes and prints, so a stage's line is printed
// the moment its worker answers. The lint findings also go to the open pages (src/problems.mjs).
//
// When the designer pauses (`idleMs` without a save), the work nobody waits for: spec/dist is
// written, the whole spec and its bundle are linted, to catch what the lint of the change cannot see (a component nobody
// uses any more, a duplicate operationId), and the docs page on disk is rebuilt (for a reload, or
// `npm start` later). A save stops that work and every stage of an older save that is still
// running, and starts again with every file saved since (src/schedule.mjs).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defaultBundleFile } from '@cloudapi/spec/bundle';
import { writeAtomically } from '@cloudapi/spec/files';
import { createSourceIndex } from '@cloudapi/spec/sources';
import { isSourceFile, isStyleFile, watchSources } from '@cloudapi/spec/watch';
import { startWorker } from '@cloudapi/spec/worker-rpc';
import { indent, stageLine } from './lines.mjs';
import { createLintStages } from './lint-stages.mjs';
import { createPreviewStages } from './preview-stages.mjs';
import { createProblemBoard } from './problems.mjs';
import { createSchedule } from './schedule.mjs';

/**
 * Where the bundle of `specDir` is written: the folder @cloudapi/spec publishes its bundle files
 * from (spec/dist), at the same place under `specDir` (which may be a copy, in the tests).
 */
function bundleDirOf(specDir) {
  const ownSpecDir = path.dirname(createRequire(import.meta.url).resolve('@cloudapi/spec/package.json'));
  return path.join(specDir, path.relative(ownSpecDir, path.dirname(defaultBundleFile('openapi.yaml'))));
}

/**
 * @param {object} options
 * @param {string} options.specDir the spec's sources
 * @param {string} [options.bundleDir] where the bundle is written (spec/dist)
 * @param {object} [options.mock] the handle startMock() returned, or null for no mock
 * @param {string} [options.mockDocument] the file that mock serves
 * @param {string} [options.docsDir] where the documentation site is written, or null for none
 * @param {string} [options.docsUrl] where it is served, for the messages
 * @param {ReturnType<typeof import('@cloudapi/docs').createLiveChannel>} [options.live] the docs
 *   server's live channel: the open pages are sent each new bundle and the lint findings
 * @param {string} [options.baseRef] what breaking changes are compared with (HEAD)
 * @param {(line: string) => void} [options.log]
 * @param {(event: { run: number, stage: string, ms: number, ok: boolean }) => void} [options.onStage]
 *   called as each stage of a rebuild ends, for benchmarks and tests
 * @param {number} [options.debounceMs] the watcher's quiet time that ends a burst of saves
 * @param {number} [options.idleMs] how long without a save before the whole-spec lint and the
 *   rebuild of the docs page on disk start
 * @returns {Promise<{ close: () => Promise<void>, idle: () => Promise<void> }>} once watching,
 *   with the linters loaded; `idle()` resolves when no rebuild is running, queued or waiting
 */
export async function startDevLoop({
  specDir, bundleDir = bundleDirOf(specDir), mock = null, mockDocument = null, docsDir = null, docsUrl = '', live = null,
  baseRef = 'HEAD', log = console.log, onStage = () => {}, debounceMs, idleMs = 3000,
}) {
  const cwd = process.cwd();
  const show = (file) => path.relative(cwd, path.resolve(specDir, file));
  const sources = createSourceIndex(specDir);
  const builder = startWorker(new URL('./build-worker.mjs', import.meta.url), { specDir, baseRef });
  const board = createProblemBoard({ cwd, onChange: (problems) => live?.showProblems(problems) });
  const schedule = createSchedule({ rebuild, stopIdleWork: () => { lints.stopWhole(); preview.stopSite(); }, idleMs, log });
  const { isCurrent } = schedule;
  const lints = createLintStages({ specDir, sources, show, board, isCurrent, log, onStage });
  const preview = createPreviewStages({ builder, sources, show, isCurrent, mock, mockDocument, live, docsDir, docsUrl, bundleDir, baseRef, log, onStage });
  const bundleYaml = path.join(bundleDir, 'openapi.yaml');
  let bundled = false; // a bundle exists (for the whole-spec lint)

  const first = await builder.call('build');
  if (first.ok) {
    bundled = true;
    const files = await builder.call('files');
    const upToDate = existsSync(bundleYaml) && (await readFile(bundleYaml, 'utf8')) === files['openapi.yaml'];
    if (!upToDate) writeAtomically(bundleDir, files);
    await preview.start({ upToDate });
  } else {
    board.bundleFailed(first.message);
    log(`✖ the spec does not bundle yet:\n${indent(first.message)}`);
  }
  const baseName = await builder.call('base');

  /** Once the designer pauses: spec/dist, the whole-spec lint, then the docs page on disk. */
  const whenIdle = (since, run, shown) => schedule.afterIdle(async () => {
    await preview.writeDist(run);
    if (!isCurrent(run)) return;
    await lints.lintWhole(since, run, shown, bundled ? bundleYaml : null);
    if (isCurrent(run)) await preview.rebuildSite(since, run);
  });

  async function rebuild(changes, since, run) {
    const files = changes.map((c) => c.file);
    log(`\n↻ ${changes.map((c) => `${show(c.file)} ${c.change}`).join(', ')}`);
    sources.invalidate(files);
    lints.invalidate(files);
    const linted = lints.lintChange(changes.filter((c) => isSourceFile(c.file) || isStyleFile(c.file)), since, run)
      .catch((error) => { log(`  lint    ✖ ${error.message}`); return new Set(); });

    const result = await builder.call('build', { invalidate: files, reload: files.includes('redocly.yaml') });
    onStage({ run, stage: 'bundle', ms: Date.now() - since, ok: result.ok });
    if (!result.ok) {
      board.bundleFailed(result.message);
      log(stageLine('bundle', since, `✖ the spec does not bundle; still serving the previous docs and mock:\n${indent(result.message)}`));
      await linted;
      return;
    }
    board.bundled();
    if (!result.changed) {
      log(stageLine('bundle', since, '✔ unchanged: the mock and the docs are up to date'));
      const shown = await linted;
      if (files.some(isStyleFile) && isCurrent(run)) whenIdle(since, run, shown); // new rules, same spec
      return;
    }
    bundled = true;
    log(stageLine('bundle', since, '✔ bundled (spec/dist is written when you pause)'));
    if (!isCurrent(run)) return;
    await preview.afterBundle(result, since, run, linted);
    const shown = await linted;
    if (isCurrent(run)) whenIdle(since, run, shown);
  }

  sources.affectedBy([]); // parses every source file now rather than on the first save
  const watcher = watchSources(specDir, schedule.onChange, { debounceMs, onError: (error) => log(`✖ watching ${show('.')}: ${error.message}`) });
  await watcher.ready;
  // Load the linters before the first save, and show where the spec stands once the start is over.
  await lints.warm();
  log(`Watching ${show('.')}: each save is linted, bundled, served by the mock and sent to the open docs pages; breaking changes are compared with ${baseName}.`);
  whenIdle(Date.now(), 0, new Set());

  return {
    idle: schedule.idle,
    async close() {
      await preview.writeDist(schedule.current()).catch((error) => log(`✖ spec/dist was not written: ${error.message}`));
      schedule.close();
      preview.stopSite();
      await watcher.close();
      await Promise.all([lints.close(), builder.close()]);
    },
  };
}
