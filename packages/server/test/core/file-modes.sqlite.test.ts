// The modes of the files that hold the server's secrets (core/data-files.ts): DATA_DIR 0700, the
// generated token and the SQLite files 0600 whatever the umask, and narrowed on the next start
// when found wider (each change told in `notices`); a TOKENS_FILE readable by others is warned about.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { tempDir, writeTokensFile } from '../harness/harness.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;
const start = (options: Parameters<typeof startServer>[0]) => startServer({ port: 0, logLevel: 'silent', transitionMs: 0, ...options });

describe('file modes', () => {
  it('makes DATA_DIR 0700 and its token and SQLite files 0600, even under a loose umask', async () => {
    const dataDir = path.join(tempDir('modes-fresh'), 'data');
    const umask = process.umask(0o000);
    try {
      const server = await start({ dataDir });
      await server.close();
      expect(server.notices).toEqual([]);
    } finally {
      process.umask(umask);
    }
    expect(modeOf(dataDir)).toBe(0o700);
    for (const name of ['token', 'cloudapi.sqlite', 'cloudapi.sqlite-wal', 'cloudapi.sqlite-shm'].filter((n) => existsSync(path.join(dataDir, n)))) {
      expect({ name, mode: modeOf(path.join(dataDir, name)).toString(8) }).toEqual({ name, mode: '600' });
    }
  });

  it('narrows a DATA_DIR found 0755 and its files found 0644 on start, and says so', async () => {
    const dataDir = path.join(tempDir('modes-wide'), 'data');
    const first = await start({ dataDir });
    await first.close();
    const files = ['token', 'cloudapi.sqlite'].map((name) => path.join(dataDir, name));
    chmodSync(dataDir, 0o755);
    for (const file of files) chmodSync(file, 0o644);

    const second = await start({ dataDir });
    try {
      expect(second.token).toBe(first.token);
      expect(modeOf(dataDir)).toBe(0o700);
      for (const file of files) expect({ file, mode: modeOf(file).toString(8) }).toEqual({ file, mode: '600' });
      expect(second.notices).toEqual(expect.arrayContaining([
        `${dataDir}: mode 0755 narrowed to 0700 (it holds the server's secrets)`,
        ...files.map((file) => `${file}: mode 0644 narrowed to 0600 (it holds the server's secrets)`),
      ]));
    } finally {
      await second.close();
    }
  });

  it('warns about a TOKENS_FILE other users can read, and leaves its mode alone', async () => {
    const dir = tempDir('modes-tokens');
    const tokensFile = writeTokensFile(dir);
    chmodSync(tokensFile, 0o644);
    mkdirSync(path.join(dir, 'data'));
    const server = await start({ dataDir: path.join(dir, 'data'), tokensFile });
    try {
      expect(server.notices).toContain(`TOKENS_FILE ${tokensFile} is readable by other users of this machine (mode 0644): \`chmod 600 ${tokensFile}\` keeps its tokens to you`);
      expect(modeOf(tokensFile)).toBe(0o644);
    } finally {
      await server.close();
    }
    chmodSync(tokensFile, 0o600);
    const quiet = await start({ dataDir: path.join(dir, 'data'), tokensFile });
    await quiet.close();
    expect(quiet.notices).toEqual([]);
  });
});
