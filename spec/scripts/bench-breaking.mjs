// `npm run bench:breaking`: how long the breaking-change engine takes on the real bundle, the
// comparison `npm run breaking` and the designer loop's breaking stage make: the bundle against a
// second parse of itself (nothing changed), against a changed copy (a field removed from a shared
// response schema, an operation removed), and with every note (`{ all: true }`, the API
// changelog). The anchor, measured in the same run, is a structuredClone of the bundle; the load
// average is printed beside the figures.
import os from 'node:os';
import { command, parse, positiveInteger } from './cli.mjs';

const options = parse(command('bench-breaking', 'Measures the breaking-change engine on the real bundle (spec/dist/openapi.json).')
  .option('--runs <n>', 'timed runs of each comparison', positiveInteger, 20)
  .option('--bundle <file>', 'the bundle to measure (default the built one)'));

const { loadBundle } = await import('../lib/bundle.mjs');
const { compareDocuments } = await import('../lib/breaking.mjs');

const bundle = loadBundle(options.bundle);
const again = loadBundle(options.bundle);
const changed = loadBundle(options.bundle);
const [schemaName, schema] = Object.entries(changed.components.schemas).find(([, s]) => Array.isArray(s.required) && s.required.length > 1);
schema.required = schema.required.slice(1);
const [firstPath] = Object.keys(changed.paths);
delete changed.paths[firstPath];

/** Median and fastest of `runs` timed calls, after a few untimed ones. */
function measure(fn) {
  for (let i = 0; i < 3; i++) fn();
  const times = [];
  for (let i = 0; i < options.runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], fastest: times[0] };
}

const rows = [
  ['structuredClone of the bundle (anchor)', measure(() => structuredClone(bundle))],
  ['compare: the bundle with itself', measure(() => compareDocuments(bundle, again))],
  [`compare: ${schemaName} lost a required field, ${firstPath} removed`, measure(() => compareDocuments(bundle, changed))],
  ['compare with every note ({ all: true })', measure(() => compareDocuments(bundle, again, { all: true }))],
];
const findings = compareDocuments(bundle, changed).findings.length;
console.log(`Breaking-change engine on ${Object.keys(bundle.paths).length} path items, ${Object.keys(bundle.components.schemas).length} schemas (${options.runs} runs each, ms):`);
for (const [label, { median, fastest }] of rows) console.log(`  ${label.padEnd(72)} median ${median.toFixed(1).padStart(7)}  fastest ${fastest.toFixed(1).padStart(7)}`);
console.log(`  (the changed copy gives ${findings} findings)`);
console.log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} cores`);
