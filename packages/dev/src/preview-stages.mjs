// What the designer loop does with a new bundle, the parts a designer waits for first:
//
//   mock      the mock's document rewritten, and the mock serving it
//   docs      the open docs pages sent the new docs copy (@cloudapi/docs live channel); each
//             renders it in place
//   breaking  what the bundle breaks for clients compared with HEAD, each finding with its file and line
//
// and, when the designer pauses, spec/dist written (the bundle's texts, its 3.0 edition: slower
// than the bundle, and nothing above needs them) and the docs page on disk rebuilt from it
// (`site`: for a reload, and for `npm start` after the session).
// The bundle worker (src/build-worker.mjs) derives everything; this side writes files, starts
// processes and prints.
import path from 'node:path';
import { formatChanges } from '@cloudapi/spec/breaking';
import { writeAtomically } from '@cloudapi/spec/files';
import { indent, plural, stageLine } from './lines.mjs';
import { buildDocs, logTail, mockServesNewDocument } from './stages.mjs';

// Longest the open pages and the breaking-change report wait for the lint of the change (a focused
// lint takes about 0.1 s; a whole-spec one, seconds, which they do not wait for).
export const LINT_FIRST_MS = 300;

/**
 * @param {object} options see startDevLoop(); `builder` is the bundle worker, `show` names a
 *   spec file for the messages, `isCurrent(run)` says no newer save came
 */
export function createPreviewStages({
  builder, sources, show, isCurrent, mock, mockDocument, live, docsDir, docsUrl, bundleDir, baseRef, log, onStage,
}) {
  let lastMockJson = null;
  // The docs version the pages were last sent, and whether the page on disk shows it.
  let site = { version: null, current: true };
  let docsBuild = null;
  let distStale = false; // spec/dist does not hold the last bundle
  const ended = (stage, run, since, ok) => onStage({ run, stage, ms: Date.now() - since, ok });

  async function reloadMock(json, since, run) {
    if (json === lastMockJson) return;
    // The log's end before the write: the restart the log shows after it is the one this write caused.
    const tail = logTail(mock);
    const write = () => writeAtomically(path.dirname(mockDocument), { [path.basename(mockDocument)]: json });
    write();
    lastMockJson = json;
    const result = await mockServesNewDocument(mock, tail, write);
    ended('mock', run, since, result.ok);
    log(result.ok
      ? stageLine('mock', since, `✔ serving the change at ${mock.baseUrl}`)
      : stageLine('mock', since, `✖ ${result.reason}: the mock still serves the previous document`));
  }

  /** The open pages told: they fetch the docs-only copy of the new bundle and render it. */
  async function sendDocs(since, run) {
    const json = await builder.call('docs');
    if (!isCurrent(run)) return;
    site = { version: live.publishDocs(json), current: false };
    ended('docs', run, since, true);
    log(stageLine('docs', since, `✔ sent to ${plural(live.openPages(), 'open page')} at ${docsUrl}`));
  }

  /** What the new bundle breaks, compared with HEAD. */
  async function reportBreaking(since, run) {
    const { findings, added, base, moved } = await builder.call('compare');
    if (moved) log(`  (${baseRef} moved: comparing with ${base} from now on)`);
    const locate = (pointer) => {
      const at = sources.locate(pointer);
      return { ...at, file: show(at.file) };
    };
    const { lines, breaking, warnings } = formatChanges({ findings, added }, { base, locate });
    ended('breaking', run, since, breaking === 0);
    const mark = breaking ? '✖' : warnings ? '⚠' : '';
    const rest = lines.slice(1).map((l) => `  ${l}`);
    log(stageLine('breaking', since, [`${mark ? `${mark} ` : ''}${lines[0]}`, ...rest].join('\n')));
  }

  return {
    /**
     * The session's first bundle: written to spec/dist if it differs (`upToDate` says it does
     * not), and sent to the pages; the page on disk was built from spec/dist, so it shows this
     * bundle if spec/dist held it already.
     */
    async start({ upToDate }) {
      site = { version: live ? live.publishDocs(await builder.call('docs'), { pageHasIt: upToDate }) : null, current: upToDate };
    },

    /**
     * The stages of a new bundle; `mockJson` is the mock's document. The mock reloads at once;
     * the pages and the breaking-change report wait for `lintDone` (the lint of the change), or
     * at most LINT_FIRST_MS: on two cores, a page re-rendering and the worker comparing with
     * HEAD would take the CPU the lint line needs, and the designer reads that line first.
     */
    async afterBundle({ mockJson }, since, run, lintDone = Promise.resolve()) {
      site.current = false;
      distStale = true;
      const stages = [];
      if (mock && mockDocument) stages.push(reloadMock(mockJson, since, run));
      const lintFirst = Promise.race([lintDone, new Promise((resolve) => { setTimeout(resolve, LINT_FIRST_MS).unref(); })]);
      if (live) stages.push(lintFirst.then(() => sendDocs(since, run)));
      stages.push(lintFirst.then(() => reportBreaking(since, run)));
      const outcome = await Promise.allSettled(stages);
      for (const failed of outcome.filter((o) => o.status === 'rejected')) log(`  ✖ ${failed.reason?.stack ?? failed.reason}`);
    },

    /** spec/dist, when it does not hold the last bundle yet: its texts, then its 3.0 edition. */
    async writeDist(run) {
      if (!distStale) return;
      const files = await builder.call('files');
      if (!isCurrent(run)) return;
      writeAtomically(bundleDir, files);
      const edition = await builder.call('edition30');
      if (!isCurrent(run)) return;
      writeAtomically(bundleDir, edition);
      distStale = false;
    },

    /** The docs page on disk, from spec/dist, when it does not show the last bundle yet. */
    async rebuildSite(since, run) {
      if (!docsDir || site.current) return;
      const { version } = site;
      docsBuild = buildDocs({ bundleDir, outDir: docsDir });
      const { code, signal, output } = await docsBuild.done;
      docsBuild = null;
      if (signal || !isCurrent(run)) return; // stopped for a newer save
      if (code === 0) {
        site = { version, current: true };
        if (version) live?.pageBuilt(version);
      }
      ended('site', run, since, code === 0);
      log(code === 0
        ? stageLine('site', since, `✔ rebuilt ${show(path.join(docsDir, 'index.html'))}${docsUrl ? ` (${docsUrl})` : ''}`)
        : stageLine('site', since, `✖ the docs build failed; ${docsUrl || show(docsDir)} serves the previous page:\n${indent(output)}`));
    },

    /** A newer save: the docs build running belongs to an older state. */
    stopSite() {
      docsBuild?.stop();
    },
  };
}
