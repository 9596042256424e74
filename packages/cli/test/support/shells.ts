// The shells whose completion scripts the tests run for real. zsh and fish are Debian packages:
// installed with apt-get when missing and this runs as root with apt; otherwise the test fails
// saying how to install them. Never skipped.
import { spawnSync } from 'node:child_process';

const found = (shell: string) => spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;

/** Makes sure `shell` runs, installing the Debian package of that name if it must. */
export function ensureShell(shell: 'bash' | 'zsh' | 'fish'): void {
  if (found(shell)) return;
  const root = process.getuid?.() === 0;
  const apt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (root && apt) {
    // A fresh machine's package lists may be empty: update first when the install alone fails.
    const install = () => spawnSync('apt-get', ['install', '-y', '-q', shell], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
    if (!install()) {
      spawnSync('apt-get', ['update', '-q'], { stdio: 'ignore' });
      install();
    }
  }
  if (!found(shell)) throw new Error(`The completion test needs ${shell} and found none: install Debian's ${shell} (\`sudo apt-get update && sudo apt-get install -y ${shell}\`; the test does this itself when it runs as root).`);
}
