// Runs the command line in-process (src/main.ts's `run`) against a reference server started on a
// free port of 127.0.0.1 with TRANSITION_MS=0, with a config folder of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../src/main.js';

/** A question asked at the (pretended) terminal, and whether its answer was read unseen. */
export interface Prompt { question: string; secret: boolean }
export interface Outcome { code: number; stdout: string; stderr: string; prompts?: Prompt[] }
export interface CliOptions { stdin?: string; env?: Record<string, string | undefined>; interactive?: boolean; answers?: string[] }

/** The folders tempDir made, removed after each test file (test/support/remove-temp-dirs.ts). */
const madeDirs = new Set<string>();

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `cloudapi-cli-${prefix}-`));
  madeDirs.add(dir);
  return dir;
}

/** Removes every folder tempDir made so far. */
export function removeTempDirs(): void {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
  madeDirs.clear();
}

/** `cloudapi …args` with the given environment; what it printed and its exit code. */
export async function cloudapi(args: string[], options: CliOptions = {}): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const answers = [...(options.answers ?? [])];
  const prompts: Prompt[] = [];
  const code = await run(args, {
    stdout: (text) => { stdout += text; },
    stderr: (text) => { stderr += text; },
    readStdin: async () => options.stdin ?? '',
    env: options.env ?? {},
    interactive: options.interactive ?? false,
    prompt: async (question, { secret = false } = {}) => { prompts.push({ question, secret }); return answers.shift() ?? ''; },
  });
  return { code, stdout, stderr, prompts };
}

/** The part of @cloudapi/server the tests use (typed here: the server's sources are not this package's to type-check). */
interface RunningServer { baseUrl: string; token: string | null; close(): Promise<void> }
const SERVER = '@cloudapi/server';
const startServer = async (options: object) => ((await import(SERVER)) as { startServer(options: object): Promise<RunningServer> }).startServer(options);

export interface ServerEnv { CLOUDAPI_TOKEN: string; CLOUDAPI_BASE_URL: string; HOME: string; XDG_CONFIG_HOME: string; [name: string]: string }
export interface TestServer { server: RunningServer; env: ServerEnv; cli(...args: string[]): Promise<Outcome>; close(): Promise<void> }

export async function startTestServer(name: string): Promise<TestServer> {
  const dataDir = tempDir(`${name}-data`);
  const home = tempDir(`${name}-home`);
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, transitionMs: 0, logLevel: 'silent' });
  const env = { CLOUDAPI_TOKEN: server.token ?? '', CLOUDAPI_BASE_URL: server.baseUrl, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  return {
    server, env,
    cli: (...args) => cloudapi(args, { env }),
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The JSON a `--json` run printed, failing with what it printed when it did not succeed. */
export function json(outcome: Outcome): any {
  if (outcome.code !== 0) throw new Error(`exit ${outcome.code}: ${outcome.stderr}${outcome.stdout}`);
  return JSON.parse(outcome.stdout);
}
