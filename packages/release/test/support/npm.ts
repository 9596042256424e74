// Running npm and the installed bins as a consumer would: outside the workspace, with none of the
// npm_* variables that `npm test` passes down (they would point npm back at the monorepo).
import { execFile, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import os from 'node:os';
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

/**
 * As run(), in a process group of its own: on the timeout the whole group is killed (npm's
 * children too: a command that serves or benchmarks must not outlive its test), and the code is 124.
 */
export function runGroup(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
    }, options.timeoutMs);
    child.on('error', (error) => { clearTimeout(timer); reject(new Error(`${command} ${args.join(' ')} could not run: ${error.message}`)); });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: timedOut ? 124 : code ?? 1, stdout, stderr: timedOut ? `${stderr}\n(killed after ${options.timeoutMs} ms)` : stderr });
    });
  });
}

/**
 * Removes a test's scratch folder with `rm -rf`: a tree of hard links (the fresh clone's
 * node_modules and Turbo cache) went in a second or two where Node's rmSync took up to 25 s of the
 * test's time. Node's own rm where there is no `rm`.
 */
export async function removeTree(dir: string): Promise<void> {
  if (!dir) return;
  const removed = await run('rm', ['-rf', dir], { cwd: os.tmpdir() }).catch(() => null);
  if (removed?.code !== 0) await rm(dir, { recursive: true, force: true });
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
