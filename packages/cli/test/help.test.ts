// --help for a few commands, held in snapshots: written from the spec's summaries, descriptions
// and examples. A change to those in the spec shows here as a snapshot to review.
import { describe, expect, it } from 'vitest';
import { cloudapi } from './support/cli.js';

const help = async (...args: string[]) => {
  const outcome = await cloudapi([...args, '--help']);
  expect(outcome.code, outcome.stderr).toBe(0);
  return outcome.stdout;
};

describe('--help', () => {
  it.each([
    [[]],
    [['volumes']],
    [['volumes', 'create']],
    [['compute', 'instances', 'boot']],
    [['domains', 'records', 'list']],
  ])('cloudapi %j --help', async (words) => {
    expect(await help(...words)).toMatchSnapshot();
  });

  it('cloudapi help <area> and --version exit 0; an area without an action is a usage error', async () => {
    expect(await cloudapi(['help', 'volumes'])).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: cloudapi volumes') });
    expect(await cloudapi(['--version'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
    expect(await cloudapi(['volumes'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: cloudapi volumes') });
  });

  it('every command\'s help has its summary and an example that runs the same command', async () => {
    const { loadTable } = await import('../src/table.js');
    for (const spec of loadTable().commands.filter((_, i) => i % 9 === 0)) {
      const text = await help(...spec.words);
      expect(text).toContain(spec.summary);
      expect(text).toContain(`Example:\n  cloudapi ${spec.words.join(' ')}`);
    }
  });
});
