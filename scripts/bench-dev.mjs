// `npm run bench:dev`: how fast `npm run dev` answers a save, measured the way a designer meets
// it. Starts `npm run dev` (scripts/start.mjs --watch) on free ports, opens the docs page in
// Debian's Chromium on the operation the change shows in, then edits real spec files the way
// editors with "safe write" save them (write a temporary file, rename it over the original) and
// times, from the rename:
//
//   lint       the lint stage's line appearing in the dev output
//   breaking   the breaking-change line naming the change appearing in the dev output
//   mock       the mock answering with the change (GET /v4/regions, polled over HTTP)
//   sent       the docs line in the dev output: the open pages told (live updates only)
//   page       the open page showing the change: by itself when the docs server tells it (live
//              updates), or else, as a designer without them would, reloaded once the docs page
//              on disk changed (how the loop ran before live updates; the output says which)
//   overlay    the open page naming the lint finding's file:line and rule (live updates only)
//
// for three changes: add a property (to Region and its list example), break a style rule (a
// camelCase property), remove a required field (`country` from Region). Every file is restored
// after each change, also on Ctrl-C or failure, and each run starts once the loop is done with
// the last one (its whole-spec lint, and the page on disk). The anchor, timed in the same run
// with the loop stopped, says how loaded the machine was: a fresh process linting the sources.
// To compare with another version of the loop, run this script there (it measures a loop
// without live updates the way a designer meets it). Not a test: read the figures, compare them.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { command, parse, positiveInteger } from '@cloudapi/spec/cli';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const options = parse(command('bench-dev', 'Times each stage of npm run dev from an editor\'s atomic save of a spec file.')
  .option('--runs <n>', 'runs of each change', positiveInteger, 3)
  .option('--timeout <seconds>', 'longest wait for one stage', positiveInteger, 120));
// Playwright (test-support/chromium.mjs loads it too) and the mock load after the command line is
// read: --help and usage errors answer at once.
const [{ chromium }, { freePort }, { CHROMIUM_ARGS, INSTALL_HINT, findChromium }] = await Promise.all([
  import('playwright-core'), import('@cloudapi/mock'), import('../test-support/chromium.mjs'),
]);

const REGION = 'spec/components/schemas/regions/Region.yaml';
const REGION_LIST_EXAMPLE = 'spec/components/examples/regions/RegionList.yaml';
// The operation whose page shows Region (Redoc's address for GET /regions).
const REGIONS_PAGE = '#/regions/listregions';
const TARGETS = { lint: 0.3, mock: 0.5, page: 1.5 };
const chromiumPath = findChromium();
if (!chromiumPath) {
  console.error(`✖ ${INSTALL_HINT}`);
  process.exit(2);
}

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

let browser = null;
let finishing = false;
async function finish(code) {
  if (finishing) return;
  finishing = true;
  restore();
  await browser?.close().catch(() => {});
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

// Runs in the page: resolves with the time (Date.now()) the rendered docs first contain `text`, or
// name the file and rule in the overlay that shows lint findings.
function whenPageShows({ text, overlay = false }) {
  const shown = () => (overlay
    ? document.querySelector('[data-live-overlay]')?.textContent.includes(text)
    : document.getElementById('redoc')?.textContent.includes(text));
  return new Promise((resolve) => {
    if (shown()) return resolve(Date.now());
    const observer = new MutationObserver(() => {
      if (!shown()) return;
      observer.disconnect();
      resolve(Date.now());
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

/** The docs page in Chromium on `address`, once Redoc and the Try it console are on it. */
async function openDocsPage(docsUrl) {
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(`${docsUrl}${REGIONS_PAGE}`, { waitUntil: 'load' });
  await page.locator('.try-it-toggle').first().waitFor({ timeout: options.timeout * 1000 });
  const live = await page.evaluate(() => Boolean(window.cloudapiLive));
  return {
    live,
    /** ms from `savedAt` (Date.now()) until the page shows `text`; without live updates, after a reload once the page on disk changed. */
    async shows(text, savedAt) {
      if (!live) {
        await whenServed(docsUrl, text, 'the docs page on disk', { head: true });
        await page.reload({ waitUntil: 'load' });
      }
      const at = await Promise.race([
        page.evaluate(whenPageShows, { text }),
        new Promise((resolve, reject) => setTimeout(() => reject(new Error(`the page did not show "${text}" within ${options.timeout} s`)), options.timeout * 1000)),
      ]);
      return at - savedAt;
    },
    /** ms from `savedAt` until the page's overlay names `text` (live updates only). */
    async overlay(text, savedAt) {
      return (await page.evaluate(whenPageShows, { text, overlay: true })) - savedAt;
    },
  };
}

/**
 * Resolves once the loop is done with the rebuild whose output starts at `from`: its whole-spec
 * lint, and (live updates) the page on disk rebuilt after it.
 */
async function settled(from, live) {
  const end = await lineMatching(/^ {2}lint all /, from, 'end of the rebuild');
  if (live) await lineMatching(/^ {2}site /, end.index, 'the page on disk');
}

/** Saves, waits for the rebuild to end, and returns the new output's start. */
async function saveAndSettle(saves, live) {
  const from = output.length;
  for (const [file, text] of saves) atomicSave(file, text);
  const start = await lineMatching(/^↻ /, from, 'rebuild');
  await settled(start.index, live);
  return from;
}

const [loadAtStart] = os.loadavg();
try {
  await lineMatching(/^ {2}lint all /, 0, 'npm run dev to start');
  const docsUrl = /✔ docs {2}(\S+)/.exec(output.map((o) => o.line).join('\n'))[1];
  const mockUrl = /✔ mock {2}(\S+)/.exec(output.map((o) => o.line).join('\n'))[1];
  const page = await openDocsPage(docsUrl);

  const changes = [
    {
      name: 'add a property',
      save: (token) => [
        [REGION, edited(REGION, (doc) => doc.setIn(['properties', 'bench_marker'], doc.createNode({ type: 'string', description: `A field the benchmark adds (${token}).` })))],
        [REGION_LIST_EXAMPLE, edited(REGION_LIST_EXAMPLE, (doc) => doc.setIn(['value', 'data', 0, 'bench_marker'], token))],
      ],
      measure: (token, from, saved, savedAt) => ({
        lint: lineMatching(/^ {2}lint +\d/, from, 'lint').then((o) => o.at - saved),
        mock: whenServed(`${mockUrl}/regions`, token, 'the mock').then((at) => at - saved),
        ...(page.live ? { sent: lineMatching(/^ {2}docs +\d/, from, 'the pages told').then((o) => o.at - saved) } : {}),
        page: page.shows(token, savedAt),
      }),
    },
    {
      name: 'break a style rule',
      save: () => [[REGION, edited(REGION, (doc) => doc.setIn(['properties', 'benchMarker'], doc.createNode({ type: 'string', description: 'A camelCase field.' })))]],
      measure: (token, from, saved, savedAt) => ({
        lint: lineMatching(/Region\.yaml:\d+:\d+ +error +redocly\/rule\/property-names-snake-case +\(properties\.benchMarker\)/, from, 'the lint finding').then((o) => o.at - saved),
        ...(page.live ? { overlay: page.overlay('property-names-snake-case', savedAt) } : {}),
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
      const [saved, savedAt] = [performance.now(), Date.now()];
      for (const [file, text] of saves) atomicSave(file, text);
      const measured = change.measure(token, from, saved, savedAt);
      for (const [stage, promise] of Object.entries(measured)) (samples[stage] ??= []).push(await promise);
      await settled(from, page.live);
      await saveAndSettle([...originals], page.live);
    }
    results.push({ name: change.name, samples });
  }

  // The anchor, on the same machine in the same run, with npm run dev stopped so that it does not
  // rebuild beside it (and the browser closed).
  await browser.close();
  browser = null;
  dev.kill('SIGINT');
  await devExited;
  const anchor = [];
  const time = (label, args) => {
    const samples = [];
    for (let run = 0; run < options.runs; run++) {
      const started = performance.now();
      const result = spawnSync(args[0], args.slice(1), { cwd: rootDir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      samples.push(performance.now() - started);
      if (result.status !== 0 && result.status !== 1) throw new Error(`${label} failed:\n${result.stdout}\n${result.stderr}`);
    }
    anchor.push({ label, samples });
  };
  time('a fresh `node spec/scripts/lint.mjs openapi.yaml`', [process.execPath, 'spec/scripts/lint.mjs', 'openapi.yaml']);

  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const stats = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted.at(-1) };
  };
  const [load1] = os.loadavg();
  console.log(`\nnpm run dev, from an atomic save: ${options.runs} runs per change, node ${process.version}, ${os.cpus().length} cores, load average ${loadAtStart.toFixed(1)} at the start and ${load1.toFixed(1)} at the end`);
  console.log(`page: ${page.live ? 'the open page updated itself (live updates)' : 'no live updates: the open page reloaded once the docs page on disk changed'}, in Chromium\n`);
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
