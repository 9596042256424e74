// `cloudapi configure`: profiles in the XDG config folder, mode 0600, chosen with --profile;
// and the shell completion scripts and their answers.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudapi, json, startTestServer, tempDir, type TestServer } from './support/cli.js';
import { ensureShell } from './support/shells.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer('configure'); });
afterAll(() => t?.close());

describe('configure and profiles', () => {
  it('writes profiles with mode 0600 under $XDG_CONFIG_HOME; --profile picks one, over the environment', async () => {
    const home = tempDir('home');
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg') };
    expect((await cloudapi(['configure', '--token', t.env.CLOUDAPI_TOKEN, '--base-url', t.env.CLOUDAPI_BASE_URL], { env })).code).toBe(0);
    expect((await cloudapi(['configure', '--profile', 'broken', '--token', 'wrong-token', '--base-url', t.env.CLOUDAPI_BASE_URL], { env })).code).toBe(0);
    const file = path.join(home, 'xdg', 'cloudapi', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles).toEqual({
      default: { token: t.env.CLOUDAPI_TOKEN, base_url: t.env.CLOUDAPI_BASE_URL },
      broken: { token: 'wrong-token', base_url: t.env.CLOUDAPI_BASE_URL },
    });
    // The default profile, with no environment variable.
    expect(json(await cloudapi(['regions', 'view', 'us-east', '--json'], { env })).id).toBe('us-east');
    expect((await cloudapi(['volumes', 'list', '--profile', 'broken'], { env })).code).toBe(1);
    // An explicit profile wins over CLOUDAPI_TOKEN; without --profile the environment wins.
    expect((await cloudapi(['volumes', 'list', '--profile', 'broken'], { env: { ...env, CLOUDAPI_TOKEN: t.env.CLOUDAPI_TOKEN } })).code).toBe(1);
    expect((await cloudapi(['volumes', 'list'], { env: { ...env, CLOUDAPI_TOKEN: 'wrong-token' } })).code).toBe(1);
    const unknown = await cloudapi(['volumes', 'list', '--profile', 'nope'], { env });
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toContain('profile "nope" is not in');
  });

  it('asks at a terminal (the token unseen), keeps an existing file at 0600, and refuses to guess without one', async () => {
    const home = tempDir('home');
    const env = { HOME: home };
    const file = path.join(home, '.config', 'cloudapi', 'config.json');
    const asked = await cloudapi(['configure'], { env, interactive: true, answers: ['typed-token', 'http://127.0.0.1:1/v4'] });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.prompts!.map((p) => p.secret)).toEqual([true, false]);
    expect(asked.prompts![0]!.question).toMatch(/^Token \(not shown as you type\)/);
    expect(asked.stdout + asked.stderr).not.toContain('typed-token');
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ token: 'typed-token', base_url: 'http://127.0.0.1:1/v4' });
    writeFileSync(file, readFileSync(file, 'utf8'), { mode: 0o644 });
    expect((await cloudapi(['configure', '--token', 'next'], { env })).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const refused = await cloudapi(['configure'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('no token on standard input');
    expect((await cloudapi(['configure', '--base-url', 'ftp://x'], { env })).stderr).toContain('--base-url: must be an http or https URL');
  });

  it('takes the token from standard input when it is not a terminal, and never prints it', async () => {
    const home = tempDir('home');
    const env = { HOME: home };
    const file = path.join(home, '.config', 'cloudapi', 'config.json');
    const piped = await cloudapi(['configure'], { env, stdin: 'piped-token\n' });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.prompts).toEqual([]);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ token: 'piped-token' });
    const dashed = await cloudapi(['configure', '--profile', 'ci', '--token', '-', '--base-url', 'http://127.0.0.1:2/v4'], { env, stdin: 'dashed-token\r\nignored\n' });
    expect(dashed.code, dashed.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.ci).toEqual({ token: 'dashed-token', base_url: 'http://127.0.0.1:2/v4' });
    expect(piped.stdout + piped.stderr + dashed.stdout + dashed.stderr).not.toMatch(/piped-token|dashed-token/);
  });
});

describe('shell completion', () => {
  it('answers areas, groups, actions and flags', async () => {
    const words = async (...typed: string[]) => (await cloudapi(['__complete', ...typed])).stdout.trim().split('\n');
    expect(await words('vo')).toEqual(['volumes']);
    expect(await words('compute', 'instances', 'b')).toEqual(['boot']);
    expect(await words('compute', '')).toEqual(expect.arrayContaining(['instances', 'backups', 'kernels']));
    expect(await words('volumes', 'create', '--s')).toEqual(['--size']);
    expect(await words('images', 'upload', '--u')).toEqual(['--upload-file']);
    expect(await words('completion', '')).toEqual(['bash', 'fish', 'zsh']);
    expect(await words('domains', 'create', '--type', '')).toEqual(['master', 'slave']);
    expect(await words('compute', 'instances', 'update', '5', '--backups.schedule.day', 'S')).toEqual(['Saturday', 'Scheduling', 'Sunday']);
  });

  it.each(['bash', 'zsh', 'fish'])('prints a %s script that calls cloudapi __complete', async (shell) => {
    const outcome = await cloudapi(['completion', shell]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('cloudapi __complete');
  });

  // Each script run in its shell with this build's command line as `cloudapi` on PATH, asked to
  // complete `cloudapi volumes cr`.
  const completes: Record<'bash' | 'zsh' | 'fish', (script: string) => string[]> = {
    bash: (script) => ['-c', `${script}\nCOMP_WORDS=(cloudapi volumes cr); COMP_CWORD=2; _cloudapi_complete; printf '%s\\n' "\${COMPREPLY[@]}"`],
    // Outside an interactive session: compadd prints what it is given, compdef does nothing.
    zsh: (script) => ['-f', '-c', `compadd() { shift; printf '%s\\n' "$@"; }; compdef() { :; }\n${script}\nwords=(cloudapi volumes cr); CURRENT=3; _cloudapi`],
    fish: (script) => ['-c', `${script}\ncomplete -C 'cloudapi volumes cr'`],
  };

  it.each(['bash', 'zsh', 'fish'] as const)('the %s script completes in that shell, run for real', async (shell) => {
    ensureShell(shell);
    const script = (await cloudapi(['completion', shell])).stdout;
    const bin = tempDir('bin');
    writeFileSync(path.join(bin, 'cloudapi'), `#!/bin/sh\nexec "${process.execPath}" "${path.resolve('bin/cloudapi.mjs')}" "$@"\n`, { mode: 0o755 });
    const out = execFileSync(shell, completes[shell](script), { env: { PATH: `${bin}:${process.env.PATH}`, HOME: tempDir('home') }, encoding: 'utf8' });
    expect(out.trim()).toBe('create');
  });
});
