// Running npm and the installed bins as a consumer would: outside the workspace, with none of the
// npm_* variables that `npm test` passes down (they would point npm back at the monorepo).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspaces } from '../../../../scripts/workspaces.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface Run { code: number; stdout: string; stderr: string }

export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, NO_COLOR: '1', npm_config_update_notifier: 'false', ...extra };
}

/** Runs a command to its end; never rejects on a non-zero exit (the caller asserts the code). */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(command, args, {
      cwd: options.cwd, env: options.env ?? cleanEnv(), timeout: options.timeoutMs ?? 240_000, maxBuffer: 64 * 1024 * 1024,
    }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(new Error(`${command} ${args.join(' ')} could not run: ${error.message}\n${stderr}`));
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

export function describeRun(what: string, result: Run): string {
  return `${what} exited ${result.code}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}`;
}

export interface Workspace { dir: string; file: string; manifest: Record<string, any> }

/** Every workspace of the monorepo; the publishable ones are those not marked private. */
export function allWorkspaces(): Workspace[] {
  return workspaces(repoRoot) as Workspace[];
}

export function publishable(): Workspace[] {
  return allWorkspaces().filter(({ manifest }) => !manifest.private);
}
