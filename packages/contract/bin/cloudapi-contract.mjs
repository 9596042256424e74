#!/usr/bin/env node
// `npm run contract -- --base-url URL [--token T]`: checks a running implementation (or the mock)
// against the contract of the bundle. Exit 0: no violation; 1: violations; 2: the run could not
// be made (bad arguments, no answer from the target).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatReport, runContract, toJUnit } from '../src/index.mjs';

const USAGE = `Usage: cloudapi-contract --base-url URL [options]

  --base-url URL        the API base, ending in its base path, e.g. http://127.0.0.1:4010/v4
  --token T             bearer token for secured operations (CONTRACT_TOKEN also works)
  --target KIND         auto (default), mock or implementation
  --junit FILE          write a JUnit XML report
  --json FILE           write the full result as JSON
  --only LIST           comma-separated operationIds, tags or "METHOD /path" to run
  --skip LIST           comma-separated operationIds, tags or "METHOD /path" to leave out
  --undeclared MODE     warn (default), fail or off: what a response field the schema does not declare is
  --no-negative         send only valid requests (no invalid variants)
  --concurrency N       operations in flight (default 4 on the mock, 1 on an implementation)
  --timeout MS          per request (default 15000)
  --spec FILE           another bundle (JSON or YAML) instead of @cloudapi/spec's
  --verbose             list warnings as well as failures
  --help`;

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      'base-url': { type: 'string' }, token: { type: 'string' }, target: { type: 'string', default: 'auto' },
      junit: { type: 'string' }, json: { type: 'string' }, only: { type: 'string' }, skip: { type: 'string' },
      undeclared: { type: 'string', default: 'warn' }, 'no-negative': { type: 'boolean', default: false },
      concurrency: { type: 'string' }, timeout: { type: 'string' }, spec: { type: 'string' },
      verbose: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  console.error(`${error.message}\n\n${USAGE}`);
  process.exit(2);
}
if (args.help) { console.log(USAGE); process.exit(0); }
const usage = (message) => { console.error(`${message}\n\n${USAGE}`); process.exit(2); };
if (!args['base-url']) usage('--base-url is required.');
try { new URL(args['base-url']); } catch { usage(`--base-url "${args['base-url']}" is not a URL.`); }
if (!['auto', 'mock', 'implementation'].includes(args.target)) usage('--target must be auto, mock or implementation.');
if (!['warn', 'fail', 'off'].includes(args.undeclared)) usage('--undeclared must be warn, fail or off.');
const number = (name, value) => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) usage(`--${name} must be a positive integer.`);
  return n;
};
const list = (value) => (value ? value.split(',').map((s) => s.trim()).filter(Boolean) : undefined);

let result;
try {
  result = await runContract({
    baseUrl: args['base-url'], token: args.token || process.env.CONTRACT_TOKEN, target: args.target, spec: args.spec,
    only: list(args.only), skip: list(args.skip), undeclared: args.undeclared, negative: !args['no-negative'],
    concurrency: number('concurrency', args.concurrency), timeoutMs: number('timeout', args.timeout),
  });
} catch (error) {
  console.error(`✖ the contract run could not be made: ${error.message}`);
  process.exit(2);
}
console.log(formatReport(result, { verbose: args.verbose }));
for (const [option, content] of [['junit', () => toJUnit(result)], ['json', () => `${JSON.stringify(result, null, 2)}\n`]]) {
  if (!args[option]) continue;
  mkdirSync(path.dirname(path.resolve(args[option])), { recursive: true });
  writeFileSync(args[option], content());
  console.log(`${option === 'junit' ? 'JUnit XML' : 'JSON'} report: ${args[option]}`);
}
process.exit(result.ok ? 0 : 1);
