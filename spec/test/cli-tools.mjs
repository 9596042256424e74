// Runs the real command-line tools (Redocly, Spectral) as a user would, for the tests that check
// what those tools say about our bundle with their own default rulesets. The project's own lint
// and bundle run in-process (scripts/run-linters.mjs, scripts/bundler.mjs); only these tests
// need the CLIs.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { specDir } from './helpers.mjs';

const require = createRequire(import.meta.url);

function binOf(pkg, name) {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[name];
  return path.join(path.dirname(manifestPath), bin);
}

/** Runs a package's bin with node, telemetry, update notices and colours off. */
export function runTool(pkg, name, args, { cwd = specDir } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binOf(pkg, name), ...args], {
      cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The JSON values in a tool's output, which may carry banners or several reports around them. */
export function splitJsonValues(text) {
  const values = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"' && depth > 0) inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if ((c === '}' || c === ']') && depth > 0) {
      depth--;
      if (depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
    }
  }
  return values;
}

/**
 * Both linters over several files in one run of each, with the given configurations (YAML text,
 * written to `scratch`): for each file in order, { spectral: Spectral's JSON findings, redocly:
 * Redocly's JSON problems }. One run per tool, as the CLIs lint several files each on their own.
 */
export async function lintReportsOf(files, scratch, { spectralRuleset, redoclyConfig }) {
  writeFileSync(path.join(scratch, 'spectral.yaml'), spectralRuleset);
  writeFileSync(path.join(scratch, 'redocly.yaml'), redoclyConfig);
  const [spectral, redocly] = await Promise.all([
    runTool('@stoplight/spectral-cli', 'spectral', ['lint', ...files, '--ruleset', path.join(scratch, 'spectral.yaml'), '--format=json', '--quiet', '--fail-severity=error'], { cwd: scratch }),
    runTool('@redocly/cli', 'redocly', ['lint', ...files, '--format=json', '--max-problems=10000', `--config=${path.join(scratch, 'redocly.yaml')}`], { cwd: scratch }),
  ]);
  const spectralReport = spectral.stdout.trim() ? splitJsonValues(spectral.stdout)[0] : [];
  // Redocly writes one report per file, in the order of the files.
  const redoclyReports = splitJsonValues(redocly.stdout);
  if (!Array.isArray(spectralReport) || redoclyReports.length !== files.length) {
    throw new Error(`a linter produced no report for every file:\n${spectral.stderr}\n${redocly.stderr}`);
  }
  return files.map((file, i) => ({
    spectral: spectralReport.filter((finding) => path.resolve(scratch, finding.source) === path.resolve(scratch, file)),
    redocly: redoclyReports[i].problems,
  }));
}

/**
 * `(file) => its report` (as lintReportsOf) for test cases that each read one of `files`: the
 * first call lints them all in one run of each tool, the others share that run.
 */
export function lintOnce(files, scratch, configs) {
  let run;
  return async (file) => {
    if (!files.includes(file)) throw new Error(`${file} is not one of the files linted together`);
    run ??= lintReportsOf(files, scratch, configs);
    return (await run)[files.indexOf(file)];
  };
}
