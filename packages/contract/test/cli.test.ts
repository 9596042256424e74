// The command line: --help, usage errors, exit codes 0, 1 and 2, the summary line last, the
// reports written on every run (exit 2 included), Ctrl-C cleaning up, and --make-tokens.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { program } from '../src/cli.js';
import { readTokensFile } from '../src/index.js';
import { allOperations, tokens, withFake } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.resolve(here, '../bin/cloudapi-contract.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'contract-cli-'));
let tokensFile: string;
beforeAll(async () => {
  if (!existsSync(path.resolve(here, '../dist/cli.js'))) throw new Error('dist/ is missing: run `npm run build` in packages/contract (npm test does it through Turbo).');
  tokensFile = path.join(dir, 'tokens.json');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(tokensFile, JSON.stringify(tokens));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], cwd = dir): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;

describe('cloudapi-contract', () => {
  it('--help shows every flag, exit code and report path, and exits 0', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    for (const option of program().options) expect(stdout, option.long).toContain(option.long!);
    for (const exit of ['0  the target keeps the contract', '1  a violation', '2  the run could not be made']) expect(stdout).toContain(exit);
    expect(stdout).toContain('contract-reports/junit.xml');
    expect(stdout).toContain('contract-reports/report.json');
    expect(stdout).toContain('contract-reports/index.html');
  });

  it('an unknown flag or a missing --base-url prints the usage to stderr and exits 2', async () => {
    const unknown = await cli(['--base-url', 'http://127.0.0.1:9/v4', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option '--bogus'[\s\S]*Usage: cloudapi-contract/);
    const missing = await cli([]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--base-url is required[\s\S]*Usage: cloudapi-contract/);
    const badShard = await cli(['--base-url', 'http://127.0.0.1:9/v4', '--shard', '3/2']);
    expect(badShard.code).toBe(2);
    expect(badShard.stderr).toMatch(/--shard takes i\/n/);
  });

  it('an unreachable target: exit 2, one line why, the summary last, both reports written', async () => {
    const out = path.join(dir, 'unreachable');
    const { code, stdout, stderr } = await cli(['--base-url', 'http://127.0.0.1:9/v4', '--timeout', '2000', '--junit', `${out}/junit.xml`, '--json', `${out}/report.json`]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^✖ the run could not be made: the target could not be reached: no answer from http:\/\/127\.0\.0\.1:9\/v4: .*ECONNREFUSED/m);
    expect(lastLine(stdout)).toMatch(new RegExp(`success validated 0/${allOperations.length}$`));
    expect(readFileSync(`${out}/junit.xml`, 'utf8')).toMatch(/<error message="the target could not be reached/);
    expect(JSON.parse(readFileSync(`${out}/report.json`, 'utf8'))).toMatchObject({ exitCode: 2, abort: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('a target answering 429 (Retry-After: 30) to every valid request: exit 2 within seconds, saying why, the summary last', async () => {
    await withFake({ defect: 'throttle-everything' }, async (fake) => {
      const out = path.join(dir, 'throttled');
      const started = Date.now();
      const { code, stdout, stderr } = await cli(['--base-url', fake.baseUrl, '--tokens', tokensFile, '--only', 'Volumes', '--examples', '0', '--json', `${out}/report.json`, '--junit', `${out}/junit.xml`, '--html', `${out}/index.html`]);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(code).toBe(2);
      expect(stderr).toMatch(/^✖ the run could not be made: the target is unusable: 5 valid requests in a row were answered 429 or 503 .*429, Retry-After: 30\): it throttles or fails every request; success validated 0\/\d+/m);
      expect(lastLine(stdout)).toMatch(/success validated 0\/\d+/);
      expect(JSON.parse(readFileSync(`${out}/report.json`, 'utf8'))).toMatchObject({ exitCode: 2, abort: expect.stringMatching(/throttles or fails every request/) });
    });
  });

  it('exit 0 on a correct implementation and 1 on a broken one, reports in the working directory by default', async () => {
    await withFake({}, async (fake) => {
      const { code, stdout } = await cli(['--base-url', fake.baseUrl, '--tokens', tokensFile, '--only', 'Regions', '--examples', '0']);
      expect(code).toBe(0);
      expect(lastLine(stdout)).toMatch(/^✔ the target keeps the contract: success validated 2\/2 \(2 of \d+ operations selected\)$/);
      expect(readFileSync(path.join(dir, 'contract-reports/junit.xml'), 'utf8')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="cloudapi-contract" tests="\d+" failures="0"/);
    });
    await withFake({ defect: 'leak-root-pass' }, async (fake) => {
      const { code, stdout } = await cli(['--base-url', fake.baseUrl, '--tokens', tokensFile, '--only', 'createVolume,deleteVolume', '--examples', '0', '--no-negative']);
      expect(code).toBe(1);
      expect(stdout).toMatch(/✖ createVolume \(POST \/volumes\) › valid request \(example "inRegion"\) › no secret in the answer: createVolume answered 200 with write-only field root_pass at \/root_pass/);
      expect(stdout).toMatch(/^ {4}curl -X POST 'http:\/\/127\.0\.0\.1:\d+\/v4\/volumes' -H "authorization: Bearer \$TOKEN"/m);
      expect(lastLine(stdout)).toMatch(/^✖ the target breaks the contract: \d+ failed checks?; success validated \d+\/2/);
    });
  });

  it('Ctrl-C stops the run, removes what it created, writes the reports and exits 2', async () => {
    // Each answer 100 ms late: the run is still going when the first volume exists, and is interrupted then.
    await withFake({ defect: 'slow', slowMs: 100 }, async (fake) => {
      const child = spawn(process.execPath, [bin, '--base-url', fake.baseUrl, '--tokens', tokensFile, '--only', 'Volumes', '--examples', '0', '--json', 'interrupted.json'], { cwd: dir });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      const watcher = setInterval(() => { if (fake.seen.some((s) => s.method === 'POST' && s.path === '/v4/volumes' && s.status === 200)) { clearInterval(watcher); child.kill('SIGINT'); } }, 50);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      clearInterval(watcher);
      expect(code).toBe(2);
      expect(stderr).toMatch(/interrupted: finishing the request in flight, then cleaning up/);
      expect(stdout).toMatch(/Clean-up: removed \d+ resources? the run created/);
      expect(lastLine(stdout)).toMatch(/^✖ the run could not be made: interrupted \(Ctrl-C\).*success validated \d+\/9/);
      expect(fake.stored()['/volumes/{volumeId}']).toEqual([]);
      expect(JSON.parse(readFileSync(path.join(dir, 'interrupted.json'), 'utf8')).abort).toMatch(/interrupted/);
    });
  });

  it('--make-tokens writes a tokens file the kit and the server read', async () => {
    const file = path.join(dir, 'made.json');
    const { code, stdout } = await cli(['--make-tokens', file]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/TOKENS_FILE=/);
    const made = readTokensFile(file);
    expect(made[0]).toMatchObject({ scopes: '*', grants: 'all', restricted: false });
    expect(made.some((t) => t.restricted)).toBe(true);
    expect(made.some((t) => t.scopes.includes('volumes:read_only') && !t.scopes.includes('volumes:read_write'))).toBe(true);
  });
});
