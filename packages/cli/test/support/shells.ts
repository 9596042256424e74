// The shells whose completion scripts the tests run for real. zsh and fish are Debian packages:
// installed with apt-get when missing and this runs as root with apt; otherwise the test fails
// saying how to install them. Never skipped.
import { spawnSync } from 'node:child_process';

const found = (shell: string) => spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;

/** Makes sure `shell` runs, installing the Debian package of that name if it must. */
export function ensureShell(shell: 'bash' | 'zsh' | 'fish'): void {
  if (found(shell)) return;
  const root = process.getuid?.() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (root && hasApt) {
    // A fresh machine's package lists may be empty: update first when the install alone fails.
    // Another package's tests may be installing at the same moment: wait for apt's locks.
    const apt = (...args: string[]) => spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', '-q', ...args], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
    if (!apt('install', '-y', shell)) {
      apt('update');
      apt('install', '-y', shell);
    }
  }
  if (!found(shell)) throw new Error(`The completion test needs ${shell} and found none: install Debian's ${shell} (\`sudo apt-get update && sudo apt-get install -y ${shell}\`; the test does this itself when it runs as root).`);
}
