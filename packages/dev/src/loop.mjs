// The designer loop behind `npm run dev`. Each save of a spec file goes through four stages, each
// printed the moment it is ready with its time since the save:
//
//   lint      the change, in a worker thread whose linters stay loaded: spec/openapi.yaml with
//             only the path items the edited files reach (src/focus.mjs)
//   bundle    in a second worker (src/build-worker.mjs), re-reading only the edited files; then
//             what it breaks for clients compared with HEAD, each finding with its file and line
//   mock      the mock's document rewritten, and the mock serving it
//   docs      the documentation site rebuilt
//
// The main thread only writes files, starts processes and prints, so a stage's line is printed
// the moment its worker answers.
//
// and then the whole spec and its bundle are linted in a second worker, to catch what the lint
// of the change cannot see (a component nobody uses any more, a duplicate operationId).
// A save during a rebuild stops what is left of it (the docs build is killed) and starts again
// with every file saved since.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { formatChanges } from '@cloudapi/spec/breaking';
import { writeAtomically } from '@cloudapi/spec/files';
import { countByFile, formatFinding, sortFindings } from '@cloudapi/spec/findings';
import { startLintWorker } from '@cloudapi/spec/lint';
import { createSourceIndex } from '@cloudapi/spec/sources';
import { isSourceFile, isStyleFile, watchSources } from '@cloudapi/spec/watch';
import { startWorker } from '@cloudapi/spec/worker-rpc';
import { focusedRoot, WHOLE_DOCUMENT_RULES } from './focus.mjs';
import { buildDocs, logTail, mockServesNewDocument } from './stages.mjs';

// Past this share of path items, the lint of the change is the lint of everything.
const FOCUS_LIMIT = 0.6;

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(2)} s`.padStart(7);
/** `  lint      0.31 s  ✔ clean`: the stage, its time since the save, what it found. */
const stageLine = (stage, since, text) => `  ${stage.padEnd(8)} ${seconds(since)}  ${text}`;
const indent = (text, by = '    ') => text.split('\n').map((line) => `${by}${line}`).join('\n');
const findingKey = (f) => `${f.tool}|${f.rule}|${f.source?.file ?? f.file}|${f.source?.line ?? f.line}|${f.message}`;

/**
 * @param {object} options
 * @param {string} options.specDir the spec's sources
 * @param {string} [options.bundleDir] where the bundle is written (spec/dist)
 * @param {object} [options.mock] the handle startMock() returned, or null for no mock
 * @param {string} [options.mockDocument] the file that mock serves
 * @param {string} [options.docsDir] where the documentation site is written, or null for none
 * @param {string} [options.docsUrl] where it is served, for the messages
 * @param {string} [options.baseRef] what breaking changes are compared with (HEAD)
 * @param {(line: string) => void} [options.log]
 * @param {(event: { run: number, stage: string, ms: number, ok: boolean }) => void} [options.onStage]
 *   called as each stage of a rebuild ends, for benchmarks and tests
 * @param {number} [options.debounceMs] the watcher's quiet time that ends a burst of saves
 * @returns {Promise<{ close: () => Promise<void>, idle: () => Promise<void> }>} once watching,
 *   with the linters loaded; `idle()` resolves when no rebuild is running or queued
 */
export async function startDevLoop({
  specDir, bundleDir = path.join(specDir, 'dist'), mock = null, mockDocument = null, docsDir = null, docsUrl = '',
  baseRef = 'HEAD', log = console.log, onStage = () => {}, debounceMs,
}) {
  const cwd = process.cwd();
  const show = (file) => path.relative(cwd, path.resolve(specDir, file));
  const sources = createSourceIndex(specDir);
  const builder = startWorker(new URL('./build-worker.mjs', import.meta.url), { specDir, baseRef });
  // Two lint workers: the lint of a change never waits behind a whole-spec lint, and a whole-spec
  // lint made stale by a newer save is stopped (its worker ended, a new one started when the
  // next whole-spec lint is due) rather than finished.
  const changeLinter = startLintWorker({ specDir });
  let wholeLinter = startLintWorker({ specDir });
  const wholeLinterNow = () => { wholeLinter ??= startLintWorker({ specDir }); return wholeLinter; };
  const bundleYaml = path.join(bundleDir, 'openapi.yaml');

  let last = { yaml: null, mockJson: null };
  const first = await builder.call('build');
  if (first.ok) {
    last = { yaml: first.files['openapi.yaml'], mockJson: null };
    if (!existsSync(bundleYaml) || (await readFile(bundleYaml, 'utf8')) !== last.yaml) writeAtomically(bundleDir, first.files);
  } else {
    log(`✖ the spec does not bundle yet:\n${indent(first.message)}`);
  }
  const baseName = await builder.call('base');

  let generation = 0;
  let running = null;
  let queued = null;
  let docsBuild = null;
  const whole = { running: null, request: null };
  const idleWaiters = [];
  const notifyIdle = () => {
    if (running || queued || whole.running) return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  };

  /** Lint of the change: the focused root, or everything when the change reaches too much. */
  async function lintChange(changes, since, run) {
    const files = changes.map((c) => c.file);
    let scope = null;
    if (!changes.some((c) => c.change !== 'changed' || c.file === 'openapi.yaml' || isStyleFile(c.file))) {
      const { paths, fromRoot } = sources.affectedBy(files);
      if (!fromRoot) {
        log(stageLine('lint', since, `✔ nothing to lint: spec/openapi.yaml does not reference ${files.map(show).join(', ')}`));
        return { shown: new Set() };
      }
      const total = sources.pathEntries().length;
      if (paths.length > 0 && paths.length <= FOCUS_LIMIT * total) {
        const text = focusedRoot(await readFile(path.join(specDir, 'openapi.yaml'), 'utf8'), sources.pathEntries(), paths);
        if (text) scope = { text, note: `${paths.length} of ${total} path items: those the change reaches` };
      }
    }
    let findings = await changeLinter.lint('openapi.yaml', scope ? { text: scope.text } : {});
    if (scope) findings = findings.filter((f) => !WHOLE_DOCUMENT_RULES.has(f.rule));
    findings = sortFindings(findings);
    const note = scope ? scope.note : 'the whole spec';
    onStage({ run, stage: 'lint', ms: Date.now() - since, ok: findings.length === 0 });
    if (!findings.length) log(stageLine('lint', since, `✔ clean (${note})`));
    else log(stageLine('lint', since, `✖ ${countByFile(findings)} (${note})\n${findings.map((f) => indent(formatFinding(f))).join('\n')}`));
    return { shown: new Set(findings.map(findingKey)) };
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
    onStage({ run, stage: 'breaking', ms: Date.now() - since, ok: breaking === 0 });
    const mark = breaking ? '✖' : warnings ? '⚠' : '';
    const rest = lines.slice(1).map((l) => `  ${l}`);
    log(stageLine('breaking', since, [`${mark ? `${mark} ` : ''}${lines[0]}`, ...rest].join('\n')));
  }

  async function reloadMock(json, since, run) {
    if (json === last.mockJson) return;
    // The log's end before the write: the restart the log shows after it is the one this write caused.
    const tail = logTail(mock);
    const write = () => writeAtomically(path.dirname(mockDocument), { [path.basename(mockDocument)]: json });
    write();
    last.mockJson = json;
    const result = await mockServesNewDocument(mock, tail, write);
    onStage({ run, stage: 'mock', ms: Date.now() - since, ok: result.ok });
    log(result.ok
      ? stageLine('mock', since, `✔ serving the change at ${mock.baseUrl}`)
      : stageLine('mock', since, `✖ ${result.reason}: the mock still serves the previous document`));
  }

  async function rebuildDocs(since, run) {
    docsBuild = buildDocs({ bundleDir, outDir: docsDir });
    const { code, signal, output } = await docsBuild.done;
    docsBuild = null;
    if (signal) return; // stopped for a newer save
    onStage({ run, stage: 'docs', ms: Date.now() - since, ok: code === 0 });
    log(code === 0
      ? stageLine('docs', since, `✔ rebuilt ${docsUrl || show(docsDir)}`)
      : stageLine('docs', since, `✖ the docs build failed; still serving the previous docs:\n${indent(output)}`));
  }

  /**
   * The whole spec and its bundle, as `npm run lint` sees them, printing only what the lint of
   * the change did not show (`shown`). One at a time: a request while one runs is served after
   * it, with the latest request's clock.
   */
  function lintWhole(since, run, shown) {
    whole.request = { since, run, shown };
    if (whole.running) return;
    whole.running = (async () => {
      while (whole.request) {
        const { since: from, run: of, shown: above } = whole.request;
        whole.request = null;
        const started = generation;
        const linter = wholeLinterNow();
        linter.invalidate([bundleYaml]).catch(() => {});
        let ofSources;
        let ofBundle;
        try {
          [ofSources, ofBundle] = await Promise.all([linter.lint('openapi.yaml'), last.yaml ? linter.lint(bundleYaml) : []]);
        } catch (error) {
          if (started !== generation) continue; // stopped for a newer save, whose rebuild asks again
          throw error;
        }
        if (started !== generation) continue;
        const mapped = ofBundle.map((f) => {
          const at = sources.locate(f.pointer);
          return { ...f, source: { ...at, file: path.join(specDir, at.file) } };
        });
        const unique = [...new Map(sortFindings([...ofSources, ...mapped]).map((f) => [findingKey(f), f])).values()];
        const fresh = unique.filter((f) => !above.has(findingKey(f)));
        onStage({ run: of, stage: 'lint-all', ms: Date.now() - from, ok: unique.length === 0 });
        if (!unique.length) {
          log(stageLine('lint all', from, '✔ clean: the whole spec and its bundle'));
        } else {
          const shownAbove = fresh.length < unique.length ? ` (${unique.length - fresh.length} shown above)` : '';
          const list = fresh.length ? `\n${fresh.map((f) => indent(formatFinding(f))).join('\n')}` : '';
          log(stageLine('lint all', from, `✖ ${countByFile(unique)} in the whole spec and its bundle${shownAbove}${list}`));
        }
      }
    })().catch((error) => log(`  lint all ✖ ${error.stack ?? error.message}`)).finally(() => {
      whole.running = null;
      notifyIdle();
    });
  }

  /** A newer save makes the running whole-spec lint stale: end its worker. */
  function stopWholeLint() {
    wholeLinter?.close();
    wholeLinter = null;
  }

  async function rebuild(changes, since) {
    const run = ++generation;
    const stale = () => run !== generation;
    const files = changes.map((c) => c.file);
    log(`\n↻ ${changes.map((c) => `${show(c.file)} ${c.change}`).join(', ')}`);
    sources.invalidate(files);
    const styleChanged = files.some(isStyleFile);
    // Not awaited: a worker answers in order, so its next lint sees these; and the whole-spec
    // worker may be busy for seconds.
    for (const linter of [changeLinter, wholeLinter].filter(Boolean)) (styleChanged ? linter.reload() : linter.invalidate(files)).catch(() => {});
    // (a whole-spec lint still running belongs to an older state: stopped in onChange)

    const linted = lintChange(changes.filter((c) => isSourceFile(c.file) || isStyleFile(c.file)), since, run)
      .catch((error) => { log(`  lint    ✖ ${error.message}`); return { shown: new Set() }; });

    const result = await builder.call('build', { invalidate: files, reload: files.includes('redocly.yaml') });
    if (!result.ok) {
      onStage({ run, stage: 'bundle', ms: Date.now() - since, ok: false });
      log(stageLine('bundle', since, `✖ the spec does not bundle; still serving the previous docs and mock:\n${indent(result.message)}`));
      await linted;
      return;
    }
    if (result.files['openapi.yaml'] === last.yaml) {
      onStage({ run, stage: 'bundle', ms: Date.now() - since, ok: true });
      log(stageLine('bundle', since, '✔ unchanged: the mock and the docs are up to date'));
      const { shown } = await linted;
      if (styleChanged && !stale()) lintWhole(since, run, shown); // new rules, same spec
      return;
    }
    writeAtomically(bundleDir, result.files);
    last = { ...last, yaml: result.files['openapi.yaml'] };
    onStage({ run, stage: 'bundle', ms: Date.now() - since, ok: true });
    log(stageLine('bundle', since, `✔ written to ${show(bundleDir)}: ${Object.keys(result.files).join(', ')}`));
    if (stale()) return;

    // The mock and the docs first: they are the long ones; the comparison runs meanwhile.
    const stages = [];
    if (mock && mockDocument) stages.push(reloadMock(result.mockJson, since, run));
    if (docsDir) stages.push(rebuildDocs(since, run));
    stages.push(reportBreaking(since, run));
    // spec/dist's 3.0 edition last: it takes longer than the bundle, and no stage above needs it.
    stages.push(Promise.allSettled(stages.slice()).then(async () => {
      if (!stale()) writeAtomically(bundleDir, await builder.call('edition30'));
    }));
    const outcome = await Promise.allSettled(stages);
    for (const failed of outcome.filter((o) => o.status === 'rejected')) log(`  ✖ ${failed.reason?.stack ?? failed.reason}`);
    const { shown } = await linted;
    if (!stale()) lintWhole(since, run, shown);
  }

  function onChange(changes, { since = Date.now() } = {}) {
    if (running) {
      // Merge with what is already waiting; the oldest save sets the clock.
      const byFile = new Map((queued?.changes ?? []).map((c) => [c.file, c]));
      for (const c of changes) byFile.set(c.file, byFile.has(c.file) && byFile.get(c.file).change === 'added' && c.change !== 'removed' ? byFile.get(c.file) : c);
      queued = { changes: [...byFile.values()].sort((a, b) => a.file.localeCompare(b.file)), since: Math.min(queued?.since ?? since, since) };
      generation++; // what is left of the running rebuild is stale
      docsBuild?.stop();
      return;
    }
    if (whole.running) stopWholeLint();
    running = rebuild(changes, since)
      .catch((error) => log(`✖ the rebuild failed: ${error.stack ?? error.message}`))
      .finally(() => {
        running = null;
        if (queued) {
          const next = queued;
          queued = null;
          onChange(next.changes, { since: next.since });
        }
        notifyIdle();
      });
  }

  sources.affectedBy([]); // parses every source file now rather than on the first save
  const watcher = watchSources(specDir, onChange, { debounceMs, onError: (error) => log(`✖ watching ${show('.')}: ${error.message}`) });
  await watcher.ready;
  // Load the linters before the first save (a cold lint takes seconds), and show where the spec
  // stands: the whole lint at start.
  await changeLinter.lint('openapi.yaml', { text: focusedRoot(await readFile(path.join(specDir, 'openapi.yaml'), 'utf8'), sources.pathEntries(), sources.pathEntries().slice(0, 1).map((e) => e.key)) ?? undefined });
  log(`Watching ${show('.')}: each save is linted, bundled, served by the mock and the docs; breaking changes are compared with ${baseName}.`);
  lintWhole(Date.now(), 0, new Set());

  return {
    idle: () => new Promise((resolve) => { idleWaiters.push(resolve); notifyIdle(); }),
    async close() {
      generation++;
      docsBuild?.stop();
      await watcher.close();
      await Promise.all([changeLinter.close(), wholeLinter?.close(), builder.close()]);
    },
  };
}
