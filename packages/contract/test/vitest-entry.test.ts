// @cloudapi/contract/vitest in a project's own `vitest run` (test/consumer/): one test per
// operation and kind of check, passing on a correct implementation and failing, by name, on a
// broken one; checks the target cannot have are skipped with the reason, never passed.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tokens, withFake } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const vitestBin = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'contract-vitest-'));
const tokensFile = path.join(dir, 'tokens.json');
writeFileSync(tokensFile, JSON.stringify(tokens));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Assertion { fullName: string; status: string; failureMessages: string[] }

function consumerRun(baseUrl: string, name: string): Promise<Assertion[]> {
  const report = path.join(dir, `${name}.json`);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [vitestBin, 'run', '--root', path.join(here, 'consumer'), '--reporter=json', `--outputFile=${report}`], {
      env: { ...process.env, CONTRACT_BASE_URL: baseUrl, CONTRACT_TOKENS: tokensFile, CONTRACT_ONLY: 'Volumes' },
    }, (error) => {
      try {
        const json = JSON.parse(readFileSync(report, 'utf8'));
        resolve(json.testResults.flatMap((f: { assertionResults: Assertion[] }) => f.assertionResults));
      } catch (e) {
        reject(error ?? e);
      }
    });
  });
}

describe('@cloudapi/contract/vitest', () => {
  it('passes on a correct implementation, one test per operation and check', async () => {
    const tests = await withFake({}, (fake) => consumerRun(fake.baseUrl, 'good'));
    const names = tests.map((t) => t.fullName);
    expect(names).toEqual(expect.arrayContaining([
      expect.stringMatching(/createVolume \(POST \/volumes\) a valid request succeeds$/),
      expect.stringMatching(/createVolume \(POST \/volumes\) tokens without the scope, grant or status it needs get 403$/),
      expect.stringMatching(/deleteVolume \(DELETE \/volumes\/\{volumeId\}\) what it changes reads back \(stateful sequence\)$/),
      expect.stringMatching(/the run could be made$/),
    ]));
    expect(tests.filter((t) => t.status === 'failed').map((t) => `${t.fullName}: ${t.failureMessages[0]}`)).toEqual([]);
    expect(tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(40);
    // generated requests were turned off in the consumer: those tests are skipped, not passed
    expect(tests.filter((t) => /generated requests/.test(t.fullName)).every((t) => t.status === 'skipped')).toBe(true);
  });

  it('fails the tests of the broken check, by operation and name', async () => {
    const tests = await withFake({ defect: 'delete-does-nothing' }, (fake) => consumerRun(fake.baseUrl, 'broken'));
    const failed = tests.filter((t) => t.status === 'failed');
    expect(failed.map((t) => t.fullName)).toEqual([expect.stringMatching(/deleteVolume \(DELETE \/volumes\/\{volumeId\}\) what it changes reads back \(stateful sequence\)$/)]);
    expect(failed[0]!.failureMessages[0]).toMatch(/404 after delete: getVolume answered 200/);
  });
});
