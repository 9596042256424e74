// A test's scratch folder in memory where the machine allows it: a consumer folder that npm
// installs the tarballs into is some 18,000 files and 200 MB, and writing them to a tmpfs takes
// about a third of the system time (and half the wall time) that a disk's file system does.
import { mkdtempSync, readFileSync, statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MEMORY = '/dev/shm';
const ROOM = 2 * 1024 ** 3;

/**
 * /dev/shm when it is a tmpfs that may run programs (not `noexec`: the installed bins and the
 * native SQLite driver run from the folder) with 2 GiB free; null otherwise.
 * @returns {string | null}
 */
function memoryFolder() {
  try {
    const mount = readFileSync('/proc/mounts', 'utf8').split('\n').map((line) => line.split(' ')).find(([, where]) => where === MEMORY);
    if (!mount || mount[2] !== 'tmpfs' || mount[3].split(',').includes('noexec')) return null;
    const { bavail, bsize } = statfsSync(MEMORY);
    return bavail * bsize >= ROOM ? MEMORY : null;
  } catch {
    return null;
  }
}

/**
 * A new empty folder (`mkdtemp`) in memory where it can be, else in the system's temporary folder;
 * the caller removes it. Not for a folder that hard-links files of the workspace (no link crosses
 * file systems).
 * @param {string} prefix
 */
export function memoryScratch(prefix) {
  return mkdtempSync(path.join(memoryFolder() ?? os.tmpdir(), prefix));
}
