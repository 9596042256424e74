#!/usr/bin/env node
// The type declarations of a JavaScript workspace (spec, mock, docs): `tsc -p
// tsconfig.declarations.json` (dist/types, derived from the JSDoc of its entry points), except that
// a file is written only when its text changed, and then by a rename. The pack task re-runs this
// through npm pack's prepack while other tasks' TypeScript may be reading those files; a rewrite
// in place would show them a half-written file.
//
//   node scripts/declarations.mjs   (in the workspace's folder)
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const configFile = path.resolve('tsconfig.declarations.json');
const { config, error } = ts.readConfigFile(configFile, ts.sys.readFile);
const parsed = error ? { errors: [error] } : ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configFile), undefined, configFile);
let diagnostics = parsed.errors;
if (!diagnostics.length) {
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  const emitted = program.emit(undefined, (file, text) => {
    if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
    mkdirSync(path.dirname(file), { recursive: true });
    const staged = `${file}.${process.pid}.tmp`;
    writeFileSync(staged, text);
    renameSync(staged, file);
  });
  diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
}
if (diagnostics.length) {
  const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.exit(diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error) ? 1 : 0);
}
