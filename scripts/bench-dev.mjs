// `npm run bench:dev`: how fast `npm run dev` answers a save, measured the way a designer meets
// it. Starts `npm run dev` (scripts/start.mjs --watch) on free ports, then edits real spec files
// the way editors with "safe write" save them (write a temporary file, rename it over the
// original) and times, from the rename:
//
//   lint       the lint stage's line appearing in the dev output
//   breaking   the breaking-change line naming the change appearing in the dev output
//   mock       the mock answering with the change (GET /v4/regions, polled over HTTP)
//   docs       the documentation page containing the change (polled over HTTP)
//
// for three changes: add a property (to Region and its list example), break a style rule (a
// camelCase property), remove a required field (`country` from Region). Every file is restored
// after each change, also on Ctrl-C or failure. The anchor, timed in the same run, is what the
// loop replaces: a fresh process linting the sources, and the Turbo rebuild of the docs and the
// mock the old watch mode ran on each save. Not a test: read the figures, compare them.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { freePort } from '@cloudapi/mock';
import { command, parse, positiveInteger } from '@cloudapi/spec/cli';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const options = parse(command('bench-dev', 'Times each stage of npm run dev from an editor\'s atomic save of a spec file.')
  .option('--runs <n>', 'runs of each change', positiveInteger, 3)
  .option('--timeout <seconds>', 'longest wait for one stage', positiveInteger, 120));

const REGION = 'spec/components/schemas/regions/Region.yaml';
const REGION_LIST_EXAMPLE = 'spec/components/examples/regions/RegionList.yaml';
const TARGETS = { lint: 1, mock: 2, docs: 4 };

// The files the benchmark edits, as they were: restored after each change and on any exit.
const originals = new Map([REGION, REGION_LIST_EXAMPLE].map((file) => [file, readFileSync(path.join(rootDir, file), 'utf8')]));
function atomicSave(file, text) {
  const full = path.join(rootDir, file);
  const temporary = path.join(path.dirname(full), `.${path.basename(full)}.bench.tmp`);
  writeFileSync(temporary, text);
  renameSync(temporary, full);
}
const restore = () => { for (const [file, text] of originals) if (readFileSync(path.join(rootDir, file), 'utf8') !== text) atomicSave(file, text); };
const edited = (file, edit) => {
  const doc = parseDocument(originals.get(file));
  edit(doc);
  return doc.toString();
};

// npm run dev, its output kept line by line.
const [docsPort, mockPort] = [await freePort(), await freePort()];
const dev = spawn(process.execPath, [path.join(rootDir, 'scripts/start.mjs'), '--watch'], {
  cwd: rootDir, env: { ...process.env, DOCS_PORT: String(docsPort), PORT: String(mockPort), NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
});
const output = [];
let partial = '';
const listeners = new Set();
const onData = (chunk) => {
  const parts = (partial + chunk).split('\n');
  partial = parts.pop();
  for (const line of parts) {
    output.push({ line, at: performance.now() });
    for (const listener of listeners) listener();
  }
};
dev.stdout.on('data', onData);
dev.stderr.on('data', onData);
const devExited = new Promise((resolve) => dev.on('exit', (code) => resolve(code)));

let finishing = false;
async function finish(code) {
  if (finishing) return;
  finishing = true;
  restore();
  dev.kill('SIGINT');
  await Promise.race([devExited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  dev.kill('SIGKILL');
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => finish(130));

/** The first output line from index `from` on that matches `pattern`: { line, at, index }. */
function lineMatching(pattern, from, what) {
  return new Promise((resolve, reject) => {
    const check = () => {
      const index = output.findIndex((o, i) => i >= from && pattern.test(o.line));
      if (index < 0) return;
      listeners.delete(check);
      clearTimeout(timer);
      resolve({ ...output[index], index });
    };
    const timer = setTimeout(() => {
      listeners.delete(check);
      reject(new Error(`no ${what} within ${options.timeout} s. npm run dev said:\n${output.slice(from).map((o) => o.line).join('\n')}`));
    }, options.timeout * 1000);
    listeners.add(check);
    devExited.then((code) => reject(new Error(`npm run dev exited (code ${code}):\n${output.map((o) => o.line).join('\n')}`)));
    check();
  });
}

/**
 * Polls `url` until its body contains `token`; the time it first did. Polling must not load
 * what it measures: 20 requests a second, and the docs page (3 MB) is fetched only when a HEAD
 * request says its length changed.
 */
async function whenServed(url, token, what, { head = false } = {}) {
  const deadline = performance.now() + options.timeout * 1000;
  let length = null;
  while (performance.now() < deadline) {
    try {
      if (head) {
        const now = (await fetch(url, { method: 'HEAD' })).headers.get('content-length');
        const changed = length !== null && now !== length;
        length = now;
        if (changed && (await (await fetch(url)).text()).includes(token)) return performance.now();
      } else if ((await (await fetch(url)).text()).includes(token)) {
        return performance.now();
      }
    } catch { /* restarting */ }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not show the change within ${options.timeout} s`);
}

/** Saves, waits for the rebuild to end (its whole-spec lint), and returns the new output's start. */
async function saveAndSettle(saves) {
  const from = output.length;
  for (const [file, text] of saves) atomicSave(file, text);
  const start = await lineMatching(/^↻ /, from, 'rebuild');
  await lineMatching(/^ {2}lint all /, start.index, 'end of the rebuild');
  return from;
}

try {
  await lineMatching(/^ {2}lint all /, 0, 'npm run dev to start');
  const docsUrl = /✔ docs {2}(\S+)/.exec(output.map((o) => o.line).join('\n'))[1];
  const mockUrl = /✔ mock {2}(\S+)/.exec(output.map((o) => o.line).join('\n'))[1];

  const changes = [
    {
      name: 'add a property',
      save: (token) => [
        [REGION, edited(REGION, (doc) => doc.setIn(['properties', 'bench_marker'], doc.createNode({ type: 'string', description: 'A field the benchmark adds.' })))],
        [REGION_LIST_EXAMPLE, edited(REGION_LIST_EXAMPLE, (doc) => doc.setIn(['value', 'data', 0, 'bench_marker'], token))],
      ],
      measure: (token, from, saved) => ({
        lint: lineMatching(/^ {2}lint +\d/, from, 'lint').then((o) => o.at - saved),
        mock: whenServed(`${mockUrl}/regions`, token, 'the mock').then((at) => at - saved),
        docs: whenServed(docsUrl, token, 'the docs', { head: true }).then((at) => at - saved),
      }),
    },
    {
      name: 'break a style rule',
      save: () => [[REGION, edited(REGION, (doc) => doc.setIn(['properties', 'benchMarker'], doc.createNode({ type: 'string', description: 'A camelCase field.' })))]],
      measure: (token, from, saved) => ({
        lint: lineMatching(/Region\.yaml:\d+:\d+ +error +redocly\/rule\/property-names-snake-case +\(properties\.benchMarker\)/, from, 'the lint finding').then((o) => o.at - saved),
      }),
    },
    {
      name: 'remove a required field',
      save: () => [[REGION, edited(REGION, (doc) => { doc.get('required').items = doc.get('required').items.filter((i) => i.value !== 'country'); })]],
      measure: (token, from, saved) => ({
        lint: lineMatching(/^ {2}lint +\d/, from, 'lint').then((o) => o.at - saved),
        breaking: lineMatching(/Region\.yaml:\d+:\d+ +country is no longer always present/, from, 'the breaking change').then((o) => o.at - saved),
      }),
    },
  ];

  const results = [];
  for (const change of changes) {
    const samples = {};
    for (let run = 0; run < options.runs; run++) {
      const token = `bench-${process.pid}-${run}-${Date.now()}`;
      const from = output.length;
      const saves = change.save(token);
      const saved = performance.now();
      for (const [file, text] of saves) atomicSave(file, text);
      const measured = change.measure(token, from, saved);
      for (const [stage, promise] of Object.entries(measured)) (samples[stage] ??= []).push(await promise);
      await lineMatching(/^ {2}lint all /, from, 'end of the rebuild');
      await saveAndSettle([...originals]);
    }
    results.push({ name: change.name, samples });
  }

  // The anchor: what the loop replaces, on the same machine in the same run, with npm run dev
  // stopped so that it does not rebuild beside it.
  dev.kill('SIGINT');
  await devExited;
  const anchor = [];
  const time = (label, args, before) => {
    const samples = [];
    for (let run = 0; run < options.runs; run++) {
      before?.(run);
      const started = performance.now();
      const result = spawnSync(args[0], args.slice(1), { cwd: rootDir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      samples.push(performance.now() - started);
      if (result.status !== 0 && result.status !== 1) throw new Error(`${label} failed:\n${result.stdout}\n${result.stderr}`);
    }
    anchor.push({ label, samples });
  };
  time('a fresh `node spec/scripts/lint.mjs openapi.yaml`', [process.execPath, 'spec/scripts/lint.mjs', 'openapi.yaml']);
  // A real edit each run, so Turbo cannot replay its cache.
  try {
    time('the old watch rebuild: turbo run build --filter=@cloudapi/docs...', ['npx', 'turbo', 'run', 'build', '--filter=@cloudapi/docs...', '--output-logs=errors-only'],
      (run) => atomicSave(REGION, `${originals.get(REGION)}# bench anchor ${process.pid} ${run}\n`));
  } finally {
    restore();
  }

  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const stats = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted.at(-1) };
  };
  const [load1] = os.loadavg();
  console.log(`\nnpm run dev, from an atomic save: ${options.runs} runs per change, node ${process.version}, ${os.cpus().length} cores, load average ${load1.toFixed(1)} at the end\n`);
  console.log(`${'change'.padEnd(26)}${'stage'.padEnd(10)}${'median'.padStart(9)}${'min'.padStart(9)}${'max'.padStart(9)}   target`);
  for (const { name, samples } of results) {
    Object.entries(samples).forEach(([stage, list], i) => {
      const { median, min, max } = stats(list);
      const target = TARGETS[stage] ? `<= ${TARGETS[stage]} s ${median <= TARGETS[stage] * 1000 ? 'met' : 'MISSED'}` : '';
      console.log(`${(i === 0 ? name : '').padEnd(26)}${stage.padEnd(10)}${s(median).padStart(9)}${s(min).padStart(9)}${s(max).padStart(9)}   ${target}`);
    });
  }
  console.log('\nanchor, same run');
  for (const { label, samples } of anchor) {
    const { median, min, max } = stats(samples);
    console.log(`  ${label.padEnd(70)}${s(median).padStart(9)}${s(min).padStart(9)}${s(max).padStart(9)}`);
  }
  await finish(0);
} catch (error) {
  console.error(`✖ ${error.message}`);
  await finish(1);
}
