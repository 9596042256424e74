// Child processes of a process, read from /proc (the tests run on Linux), and a bin run with its
// output collected: what the supervision and CLI tests need to kill Prism under a running mock.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const binPath = fileURLToPath(new URL('../../bin/cloudapi-mock.mjs', import.meta.url));

/** Pids whose parent is `pid`. */
export function childrenOf(pid) {
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the parent pid follows the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch { /* gone meanwhile */ }
  }
  return children;
}

/** Starts the bin; `text()` is everything it printed so far, `exited` resolves with its status. */
export function runBin(args, { env = {} } = {}) {
  const child = spawn(process.execPath, [binPath, ...args], { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    /** Resolves with the first match of `pattern` in stdout + stderr, waiting for it. */
    async waitFor(pattern, timeoutMs = 60_000) {
      const started = Date.now();
      for (;;) {
        const match = pattern.exec(`${stdout}${stderr}`);
        if (match) return match;
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the bin exited before printing ${pattern}:\n${stdout}${stderr}`);
        if (Date.now() - started > timeoutMs) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${stdout}${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
