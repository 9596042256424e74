// The modes of the files that hold the server's secrets: the DATA_DIR folder (0700), the
// generated token and the SQLite files (0600: `cloudapi.sqlite` holds the URL-signing secret, its
// -wal and -shm the same pages). Other users of the machine must not read them. A folder or file
// found wider than that (made by an older version, or copied with a loose umask) is narrowed on
// start and the server says so; one it cannot narrow (another user's) stops the start, naming it.
// A TOKENS_FILE is the user's own file: readable by others it is only warned about.
// On Windows, where these modes mean nothing, nothing is checked.
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';

const checked = process.platform !== 'win32';

/** Narrows `file` to `mode` when it allows more; a line saying so, or null when it was fine. */
function narrow(file: string, mode: number): string | null {
  const found = statSync(file).mode & 0o777;
  if ((found & ~mode) === 0) return null;
  try {
    chmodSync(file, mode);
  } catch (error) {
    throw new Error(`${file} has mode ${octal(found)} and could not be narrowed to ${octal(mode)} (${(error as NodeJS.ErrnoException).code}): other users of this machine could read the server's secrets; run \`chmod ${octal(mode)} ${file}\` as its owner, or use another DATA_DIR`);
  }
  return `${file}: mode ${octal(found)} narrowed to ${octal(mode)} (it holds the server's secrets)`;
}

const octal = (mode: number) => `0${mode.toString(8)}`;

/** Makes `dir` (0700), or narrows it; the notices of what was changed. */
export function secureDataDir(dir: string): string[] {
  if (!checked) return [];
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700); // whatever the umask left
    return [];
  }
  return [narrow(dir, 0o700)].filter((line): line is string => line !== null);
}

/**
 * Narrows each of `files` that exists to 0600; the notices of what was changed, for the files
 * `told` accepts (a file this start just made is narrowed without a word).
 */
export function secureFiles(files: string[], told: (file: string) => boolean = () => true): string[] {
  if (!checked) return [];
  return files.filter((file) => existsSync(file)).map((file) => [file, narrow(file, 0o600)] as const)
    .filter(([file, line]) => line !== null && told(file)).map(([, line]) => line!);
}

/** The names in `dir` now (to tell files found from files a start makes). */
export const namesIn = (dir: string): Set<string> => new Set(existsSync(dir) ? readdirSync(dir) : []);

/** The SQLite database file and the two files beside it that hold its pages. */
export const sqliteFiles = (database: string) => [database, `${database}-wal`, `${database}-shm`];

/** A warning when a tokens file can be read by other users of the machine, or null. */
export function tokensFileWarning(file: string): string | null {
  if (!checked) return null;
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o044) === 0) return null;
  return `TOKENS_FILE ${file} is readable by other users of this machine (mode ${octal(mode)}): \`chmod 600 ${file}\` keeps its tokens to you`;
}
