// The bin's command line: --help prints the usage and exits 0; an unknown flag or a bad value
// prints what is wrong and the usage on stderr and exits 2, before anything starts; started, it
// serves the mock and Ctrl-C (SIGINT) stops it with status 0.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { binPath, runBin } from './support/processes.mjs';

function run(args, env = {}) {
  const result = spawnSync(process.execPath, [binPath, ...args], { encoding: 'utf8', env: { ...process.env, PORT: '0', ...env }, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('cloudapi-mock', () => {
  it('answers --help with its usage on stdout and status 0, starting nothing', () => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout, stderr } = run([flag]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Usage: cloudapi-mock \[options\]/);
      for (const option of ['--port', '--host', '--dynamic', '--seed', '--max-body', '--proxy', '--errors', '--run', '--no-watch']) expect(stdout).toContain(option);
      expect(stdout).toMatch(/Exit status: 0 .*; 1 .*; 2 bad usage/s);
      expect(stderr).toBe('');
    }
  });

  it.each([
    [['--bogus'], /unknown option '--bogus'/],
    [['--port', 'abc'], /--port <port>.*'abc' is invalid\. It must be an integer from 0 to 65535/],
    [['--max-body', '12XB'], /--max-body <size>.*"12XB" is not a size/],
    [['--proxy', 'not a url'], /--proxy <url>.*It must be a URL/],
    [['--seed', '42'], /--seed needs --dynamic/],
    [['--errors'], /--errors needs --proxy/],
    [['--dynamic', '--proxy', 'http://127.0.0.1:1/v4'], /--dynamic and --proxy exclude each other/],
    [['serve'], /too many arguments/],
  ])('refuses %j with status 2, the reason and the usage on stderr', (args, reason) => {
    const { code, stdout, stderr } = run(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(reason);
    expect(stderr).toMatch(/Usage: cloudapi-mock \[options\]/);
    expect(stdout).toBe('');
  });

  it('refuses a PORT that is not a port, naming the variable', () => {
    const { code, stderr } = run([], { PORT: 'eighty' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/from env 'PORT' is invalid/);
  });

  it('serves the mock until SIGINT, then exits 0', async () => {
    const bin = runBin(['--no-watch', '--no-standby']);
    const [baseUrl] = await bin.waitFor(/http:\/\/127\.0\.0\.1:\d+\/v4/);
    expect(bin.stdout()).toMatch(/✔ mock of the API \(examples\) listening at .* \(Prism: pid \d+\)\n/);
    expect((await fetch(`${baseUrl}/regions`)).status).toBe(200);
    bin.child.kill('SIGINT');
    expect(await bin.exited).toEqual({ code: 0, signal: null });
  }, 90_000);
});
