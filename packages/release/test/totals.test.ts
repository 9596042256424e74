// The grand total `npm test` ends with (scripts/test.mjs), read from Turbo's output.
import { describe, expect, it } from 'vitest';
import { totals } from '../../../scripts/test.mjs';

const turboOutput = [
  '@cloudapi/spec:lint: ✔ no findings',
  '@cloudapi/spec:test:  \u001b[2m     Tests \u001b[22m \u001b[1m\u001b[32m120 passed\u001b[39m\u001b[22m\u001b[90m (120)\u001b[39m',
  '@cloudapi/mock:test:       Tests  2 failed | 40 passed | 3 skipped (45)',
  '@cloudapi/client:lint:       Tests  9 passed (9)',
  '@cloudapi/server:test:  Tests  7 passed (7)',
  '@cloudapi/server:test:  Tests  1 failed | 6 passed (7)',
  '@cloudapi/dev:test: \u001b[31m⎯⎯⎯⎯⎯⎯\u001b[39m\u001b[1m\u001b[41m Failed Suites 1 \u001b[49m\u001b[22m\u001b[31m⎯⎯⎯⎯⎯⎯⎯\u001b[39m',
  '@cloudapi/dev:test:       Tests  10 passed | 5 skipped (15)',
  '@cloudapi/docs:test: Error: Chromium crashed',
].join('\n');

describe('totals', () => {
  const sum = totals(turboOutput);

  it('adds the Vitest summaries of every test task, colours or not, several per task too; a file that failed to load is a failure', () => {
    expect({ passed: sum.passed, failed: sum.failed, skipped: sum.skipped, runs: sum.runs }).toEqual({ passed: 183, failed: 4, skipped: 8, runs: 5 });
  });

  it('ignores summaries outside test tasks', () => {
    expect([...sum.tasks].sort()).toEqual(['@cloudapi/dev', '@cloudapi/mock', '@cloudapi/server', '@cloudapi/spec']);
  });

  it('knows the test task that printed no summary', () => {
    expect([...sum.testTasks].filter((task) => !sum.tasks.has(task))).toEqual(['@cloudapi/docs']);
  });
});
