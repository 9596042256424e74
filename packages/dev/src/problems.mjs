// What the open docs pages show of the spec's lint findings (`npm run dev`): the state of the spec
// as well as the loop knows it, from two kinds of lint:
//
// - the lint of a change sees the files its path items reach: its findings replace the earlier
//   ones of those files, so a save that fixes a problem clears it at once;
// - the whole-spec lint, run when the designer pauses, sees everything: its findings replace all,
//   and those only it can see (rules on the whole document, findings in the bundle) stay until it
//   runs again.
//
// Plus why the spec does not bundle, when it does not.
import path from 'node:path';
import { WHOLE_DOCUMENT_RULES } from './focus.mjs';

/**
 * A finding as a page shows it: `file` relative to `cwd` (the repository, where `npm run dev`
 * runs), its source position for a finding in the bundle.
 */
export function pageFinding(finding, { cwd = process.cwd(), whole = false } = {}) {
  const at = finding.source ?? finding;
  return {
    file: path.relative(cwd, at.file).split(path.sep).join('/'),
    line: at.line,
    column: at.column,
    severity: finding.severity,
    rule: `${finding.tool}/${finding.rule}`,
    message: finding.message,
    ...(whole ? { whole: true } : {}),
  };
}

const keyOf = (f) => `${f.file}|${f.line}|${f.column}|${f.rule}|${f.message}`;

/**
 * @param {{ cwd?: string, onChange?: (problems: { findings: object[], bundle: string | null }) => void }} [options]
 *   `onChange` is told the new state each time it changes
 */
export function createProblemBoard({ cwd = process.cwd(), onChange = () => {} } = {}) {
  let findings = []; // page findings, each with `whole` when only the whole-spec lint can see it
  let bundle = null;
  let told = null;

  function tell() {
    const state = { findings, bundle };
    const text = JSON.stringify(state);
    if (text === told) return;
    told = text;
    onChange(state);
  }

  return {
    /**
     * The lint of a change: `linted` names the files it saw (relative to `cwd`), or is null when
     * it linted everything.
     */
    fromChange(list, linted) {
      const fresh = list.map((f) => pageFinding(f, { cwd }));
      const kept = findings.filter((f) => f.whole || (linted !== null && !linted.has(f.file)));
      findings = [...new Map([...kept, ...fresh].map((f) => [keyOf(f), f])).values()];
      tell();
    },
    /** The whole-spec lint: `fromBundle` says a finding was made on the bundle, not the sources. */
    fromWhole(list, fromBundle = () => false) {
      findings = list.map((f) => pageFinding(f, { cwd, whole: WHOLE_DOCUMENT_RULES.has(f.rule) || fromBundle(f) }));
      tell();
    },
    bundleFailed(message) {
      bundle = message;
      tell();
    },
    bundled() {
      bundle = null;
      tell();
    },
    state: () => ({ findings, bundle }),
  };
}
