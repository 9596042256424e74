// `npm run contract -- --base-url URL [--token T] [--tokens FILE]`: checks a running
// implementation (or the mock) against the contract of the bundle. Exit 0: the target keeps the
// contract (every selected operation's success validated); 1: a violation; 2: the run could not
// be made. The JUnit and JSON reports are written on every run that got past its arguments.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { formatReport, summaryLine, toJUnit, toJson } from './report/report.js';
import { toHtml } from './report/html.js';
import { loadDocument, modelOperations } from './model/operations.js';
import { createSchemaViews } from '@cloudapi/spec/schema-views';
import { runContract, type ContractResult } from './run.js';
import { tokenNames, tokenRedactor } from './run/redaction.js';
import { makeTokens, readTokensFile, type TokenEntry, writeTokensFile } from './model/tokens.js';
import { DEFAULTS } from './run/settings.js';

const DEFAULT_JUNIT = 'contract-reports/junit.xml';
const DEFAULT_JSON = 'contract-reports/report.json';
const DEFAULT_HTML = 'contract-reports/index.html';

const positiveInt = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number.`);
  return n;
};
const positiveNumber = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number.`);
  return n;
};
/** 15m, 90s, 2h or a number of seconds, in milliseconds. */
export function parseDuration(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError('--deadline takes a duration such as 15m, 90s or 2h.');
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms'];
  return Number(m[1]) * unit;
}
const shard = (value: string) => {
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new InvalidArgumentError('--shard takes i/n with 1 <= i <= n, such as 2/4.');
  return { index: Number(m[1]), count: Number(m[2]) };
};
const list = (value: string) => value.split(',').map((s) => s.trim()).filter(Boolean);

export function program(): Command {
  const cmd = new Command('cloudapi-contract')
    .description('Checks an implementation of the Cloud Account Management API (or its mock) against the contract of the spec\'s bundle.')
    .option('--base-url <url>', 'the API base, ending in its base path, e.g. http://127.0.0.1:4010/v4')
    .option('--token <token>', 'bearer token for valid requests (CONTRACT_TOKEN also works)')
    .option('--tokens <file>', 'tokens with known scopes, grants and restrictions (the server\'s TOKENS_FILE format): runs the 403 checks')
    .addOption(new Option('--target <kind>', 'what the target is').choices(['auto', 'mock', 'implementation']).default('auto'))
    .option('--only <list>', 'comma-separated area names (spec tags such as Volumes or "Object Storage"), operationIds or "METHOD /path"', list)
    .option('--skip <list>', 'the same, to leave out', list)
    .option('--shard <i/n>', 'run the i-th of n slices of the operations (by operationId), e.g. on n CI machines', shard)
    .option('--examples <n>', 'generated requests (fast-check) per operation with a JSON body', positiveInt('--examples'), 5)
    .option('--seed <n>', 'seed of the generated requests (printed by every run)', positiveInt('--seed'))
    .option('--allow-writes', 'run state-changing operations against a target that is neither the mock nor a loopback address')
    .option('--allow-destructive', 'run every destructive action (Object Storage cancel, backups cancel) on a real target; without it one runs only where it destroys nothing this run did not create')
    .option('--remote', 'treat a loopback target as remote (a proxy in front of a real server): state-changing operations then need --allow-writes')
    .option('--dry-run', 'list every request the run would send, and send none')
    .option('--timeout <ms>', 'per request: connect, headers and body', positiveNumber('--timeout'), DEFAULTS.timeoutMs)
    .option('--deadline <duration>', 'bounds the whole run (15m, 90s, 2h); clean-up gets its own time after it', parseDuration, DEFAULTS.deadlineMs)
    .option('--settle-timeout <ms>', 'how long an operation waits for what it acts on to leave a transitional status (provisioning, booting...)', positiveNumber('--settle-timeout'), DEFAULTS.settleTimeoutMs)
    .option('--max-body-mb <n>', 'a larger response body is a failure; reading stops at the cap', positiveNumber('--max-body-mb'), DEFAULTS.maxBodyMb)
    .option('--max-response-ms <ms>', 'a slower answer is a failure (default: no limit; the slowest is printed)', positiveNumber('--max-response-ms'))
    .option('--junit <file>', 'the JUnit XML report', DEFAULT_JUNIT)
    .option('--json <file>', 'the JSON report', DEFAULT_JSON)
    .option('--html <file>', 'the HTML report (one self-contained page)', DEFAULT_HTML)
    .addOption(new Option('--undeclared <mode>', 'what a response field the schema does not declare is').choices(['warn', 'fail', 'off']).default(DEFAULTS.undeclared))
    .option('--no-negative', 'send no invalid variants')
    .option('--concurrency <n>', `operations in flight where order does not matter (default ${DEFAULTS.concurrency.mock} on the mock, ${DEFAULTS.concurrency.implementation} on an implementation)`, positiveInt('--concurrency'))
    .option('--spec <file>', 'another bundle (JSON or YAML) instead of @cloudapi/spec\'s')
    .option('--make-tokens <file>', 'write a tokens file covering every scope check (for TOKENS_FILE and --tokens), and exit')
    .option('--verbose', 'list warnings as well as failures, and each operation as it finishes')
    .addHelpText('after', `
Exit status:
  0  the target keeps the contract: every selected operation got a validated success, no check failed
  1  a violation: at least one check failed (each is listed with its operation, request, reason and a curl line)
  2  the run could not be made: bad arguments, the target unreachable or unusable (connections refused,
     reset, hung or garbage several times in a row), the deadline reached, Ctrl-C, or operations that
     could not be proven (not allowed to run, no token, a create they depend on failed)

Reports (written on every run that got past its arguments, exit 2 included):
  ${DEFAULT_JUNIT}   JUnit XML: a suite per operation, a test case per check (--junit)
  ${DEFAULT_JSON}  the whole result as JSON (--json)
  ${DEFAULT_HTML}   a page: the summary, each failure with a curl line, a row per operation with
                              its declared and seen statuses and its checks; opens offline (--html)
  (relative to the working directory; npm run contract runs in the repository root)

Safety: state-changing operations run against the mock and loopback addresses, elsewhere only with
--allow-writes. A destructive action (cancel, purge...) runs without --allow-destructive only where it
destroys nothing this run did not create: on an object the run made, or account-wide when the lists of
its area show only what the run made. The kit only changes or deletes what the run created, and
deletes all of it at the end, also after a failure or Ctrl-C; what it could not delete is listed.

Examples:
  npm run contract -- --base-url http://127.0.0.1:4010/v4
  npm run contract -- --base-url http://127.0.0.1:4020/v4 --tokens tokens.json --allow-destructive --examples 20
  npm run contract -- --base-url https://staging.example/v4 --token "$TOKEN" --only Regions,Images --dry-run`);
  return cmd;
}

function writeReports(result: ContractResult, junit: string, json: string, html: string): string[] {
  const written: string[] = [];
  for (const [file, content] of [[junit, toJUnit(result)], [json, toJson(result)], [html, toHtml(result)]] as const) {
    try {
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      writeFileSync(file, content);
      written.push(file);
    } catch (error) {
      console.error(`could not write ${file}: ${(error as Error).message}`);
    }
  }
  return written;
}

export async function main(argv: string[]): Promise<number> {
  const cmd = program().exitOverride().configureOutput({ writeErr: (text) => process.stderr.write(text), outputError: (text, write) => write(text) });
  try {
    cmd.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.help' || error.code === 'commander.version') return 0;
      process.stderr.write(`\n${cmd.helpInformation()}`);
      return 2;
    }
    throw error;
  }
  const o = cmd.opts();
  const usage = (message: string) => { process.stderr.write(`error: ${message}\n\n${cmd.helpInformation()}`); return 2; };
  let document: any;
  try { document = loadDocument(o.spec); } catch (error) { return usage(`the bundle could not be read: ${(error as Error).message}`); }
  if (o.makeTokens) {
    const entries = makeTokens(modelOperations(document, createSchemaViews(document).resolve));
    try { writeTokensFile(o.makeTokens, entries); } catch (error) { return usage(`--make-tokens ${o.makeTokens}: could not write it (${(error as Error).message})`); }
    console.log(`wrote ${entries.length} tokens to ${o.makeTokens}: start the server with TOKENS_FILE=${o.makeTokens}, then pass --tokens ${o.makeTokens}`);
    return 0;
  }
  if (!o.baseUrl) return usage('--base-url is required.');
  try { if (!/^https?:$/.test(new URL(o.baseUrl).protocol)) throw new Error(); } catch { return usage(`--base-url "${o.baseUrl}" is not an http(s) URL.`); }
  let tokens: TokenEntry[] | undefined;
  try { tokens = o.tokens ? readTokensFile(o.tokens) : undefined; } catch (error) { return usage((error as Error).message); }

  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) { process.stderr.write('\ninterrupted: finishing the request in flight, then cleaning up what the run created (Ctrl-C again to stop at once)\n'); controller.abort(); }
    else { process.stderr.write('stopped during clean-up: what the run created may be left behind\n'); process.exit(2); }
  };
  process.on('SIGINT', onSigint);
  let result: ContractResult;
  try {
    result = await runContract({
      baseUrl: o.baseUrl, token: o.token ?? process.env.CONTRACT_TOKEN, tokens, target: o.target, document,
      only: o.only, skip: o.skip, shard: o.shard, undeclared: o.undeclared, negative: o.negative, examples: o.examples, seed: o.seed,
      timeoutMs: o.timeout, settleTimeoutMs: o.settleTimeout, deadlineMs: o.deadline, maxBodyMb: o.maxBodyMb, maxResponseMs: o.maxResponseMs,
      allowWrites: o.allowWrites, allowDestructive: o.allowDestructive, remote: o.remote, dryRun: o.dryRun, concurrency: o.concurrency,
      signal: controller.signal, onProgress: o.verbose ? (line) => process.stderr.write(`${line}\n`) : undefined,
    });
  } catch (error) {
    const redact = tokenRedactor(tokenNames(o.token ?? process.env.CONTRACT_TOKEN, tokens ?? []));
    process.stderr.write(`✖ the run could not be made: the kit failed: ${redact(String((error as Error).stack ?? error))}\nsuccess validated 0/0\n`);
    return 2;
  } finally {
    process.off('SIGINT', onSigint);
  }
  const text = formatReport(result, { verbose: o.verbose });
  const written = writeReports(result, o.junit, o.json, o.html);
  // The summary line stays last: the reports are named just before it.
  const lines = text.split('\n');
  const last = lines.pop();
  console.log([...lines, `reports: ${written.join(', ') || 'none written'}`, last].join('\n'));
  if (result.exitCode === 2 && result.abort) process.stderr.write(`${summaryLine(result)}\n`);
  return result.exitCode;
}
