// The two lints of the designer loop, each in a worker thread whose linters stay loaded:
//
//   lint      the change: spec/openapi.yaml with only the path items the edited files reach
//             (src/focus.mjs), printed the moment it is ready
//   lint all  the whole spec and its bundle, as `npm run lint` sees them, when the designer
//             pauses: what the lint of the change cannot see (a component nobody uses any more,
//             a duplicate operationId)
//
// Two workers: the lint of a change never waits behind a whole-spec lint, and a whole-spec lint
// made stale by a newer save is stopped (its worker ended, a new one started when the next one
// is due) rather than finished. Both tell the problem board (src/problems.mjs) what they found.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { countByFile, formatFinding, sortFindings } from '@cloudapi/spec/findings';
import { startLintWorker } from '@cloudapi/spec/lint';
import { isStyleFile } from '@cloudapi/spec/watch';
import { focusedRoot, WHOLE_DOCUMENT_RULES } from './focus.mjs';
import { indent, stageLine } from './lines.mjs';

// Past this share of path items, the lint of the change is the lint of everything.
const FOCUS_LIMIT = 0.6;

const findingKey = (f) => `${f.tool}|${f.rule}|${f.source?.file ?? f.file}|${f.source?.line ?? f.line}|${f.message}`;
const findingLines = (findings) => findings.map((f) => indent(formatFinding(f))).join('\n');

/**
 * @param {object} options
 * @param {string} options.specDir
 * @param {ReturnType<typeof import('@cloudapi/spec/sources').createSourceIndex>} options.sources
 * @param {(file: string) => string} options.show a spec file as the messages name it
 * @param {ReturnType<typeof import('./problems.mjs').createProblemBoard>} options.board
 * @param {(run: number) => boolean} options.isCurrent
 * @param {(line: string) => void} options.log
 * @param {(event: object) => void} options.onStage
 */
export function createLintStages({ specDir, sources, show, board, isCurrent, log, onStage }) {
  const changeLinter = startLintWorker({ specDir });
  let wholeLinter = startLintWorker({ specDir });
  const rootText = () => readFile(path.join(specDir, 'openapi.yaml'), 'utf8');

  /** The root to lint for `changes` with what it reaches, or null to lint everything. */
  async function scopeOf(changes) {
    if (changes.some((c) => c.change !== 'changed' || c.file === 'openapi.yaml' || isStyleFile(c.file))) return null;
    const { paths, fromRoot } = sources.affectedBy(changes.map((c) => c.file));
    if (!fromRoot) return { unreferenced: true };
    const total = sources.pathEntries().length;
    if (paths.length === 0 || paths.length > FOCUS_LIMIT * total) return null;
    const text = focusedRoot(await rootText(), sources.pathEntries(), paths);
    return text ? { text, linted: new Set([...sources.reachedFrom(paths)].map(show)), note: `${paths.length} of ${total} path items: those the change reaches` } : null;
  }

  return {
    /** Loads the linters (a cold lint takes seconds) with a lint of one path item. */
    async warm() {
      await changeLinter.lint('openapi.yaml', { text: focusedRoot(await rootText(), sources.pathEntries(), sources.pathEntries().slice(0, 1).map((e) => e.key)) ?? undefined });
    },

    /** Files that changed (not awaited: a worker answers in order, so its next lint sees them). */
    invalidate(files) {
      const styleChanged = files.some(isStyleFile);
      for (const linter of [changeLinter, wholeLinter].filter(Boolean)) (styleChanged ? linter.reload() : linter.invalidate(files)).catch(() => {});
    },

    /** The lint of a change; resolves with the keys of the findings it showed. */
    async lintChange(changes, since, run) {
      const scope = await scopeOf(changes);
      if (scope?.unreferenced) {
        const files = changes.map((c) => show(c.file));
        board.fromChange([], new Set(files));
        log(stageLine('lint', since, `✔ nothing to lint: spec/openapi.yaml does not reference ${files.join(', ')}`));
        return new Set();
      }
      let findings = await changeLinter.lint('openapi.yaml', scope ? { text: scope.text } : {});
      if (scope) findings = findings.filter((f) => !WHOLE_DOCUMENT_RULES.has(f.rule));
      findings = sortFindings(findings);
      if (isCurrent(run)) board.fromChange(findings, scope ? scope.linted : null);
      const note = scope ? scope.note : 'the whole spec';
      onStage({ run, stage: 'lint', ms: Date.now() - since, ok: findings.length === 0 });
      log(stageLine('lint', since, findings.length ? `✖ ${countByFile(findings)} (${note})\n${findingLines(findings)}` : `✔ clean (${note})`));
      return new Set(findings.map(findingKey));
    },

    /**
     * The whole spec and, when `bundle` names it, its bundle, printing only what the lint of the
     * change did not show (`shown`). A newer save stops it (stopWhole()).
     */
    async lintWhole(since, run, shown, bundle) {
      wholeLinter ??= startLintWorker({ specDir });
      const linter = wholeLinter;
      if (bundle) linter.invalidate([bundle]).catch(() => {});
      let ofSources;
      let ofBundle;
      try {
        [ofSources, ofBundle] = await Promise.all([linter.lint('openapi.yaml'), bundle ? linter.lint(bundle) : []]);
      } catch (error) {
        if (!isCurrent(run)) return; // stopped for a newer save
        throw error;
      }
      if (!isCurrent(run)) return;
      const mapped = ofBundle.map((f) => {
        const at = sources.locate(f.pointer);
        return { ...f, source: { ...at, file: path.join(specDir, at.file) } };
      });
      const unique = [...new Map(sortFindings([...ofSources, ...mapped]).map((f) => [findingKey(f), f])).values()];
      const inSources = new Set(ofSources.map(findingKey));
      board.fromWhole(unique, (f) => !inSources.has(findingKey(f)));
      const fresh = unique.filter((f) => !shown.has(findingKey(f)));
      onStage({ run, stage: 'lint-all', ms: Date.now() - since, ok: unique.length === 0 });
      if (!unique.length) {
        log(stageLine('lint all', since, '✔ clean: the whole spec and its bundle'));
        return;
      }
      const shownAbove = fresh.length < unique.length ? ` (${unique.length - fresh.length} shown above)` : '';
      log(stageLine('lint all', since, `✖ ${countByFile(unique)} in the whole spec and its bundle${shownAbove}${fresh.length ? `\n${findingLines(fresh)}` : ''}`));
    },

    /** A newer save: the whole-spec lint running belongs to an older state. */
    stopWhole() {
      wholeLinter?.close();
      wholeLinter = null;
    },

    close: () => Promise.all([changeLinter.close(), wholeLinter?.close()]),
  };
}
