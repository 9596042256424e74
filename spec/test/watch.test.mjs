// Watch mode's trigger: a burst of writes to spec sources gives one call naming the files;
// other files (the bundle in dist/, editor backups) give none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isSourceFile, watchSources } from '../lib/watch.mjs';

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let dir;
let watcher;
afterEach(() => {
  watcher?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('watchSources', () => {
  it('knows the source files', () => {
    expect(['openapi.yaml', 'paths/volumes/volumes.yaml', 'components/schemas/volumes/Volume.yaml'].every(isSourceFile)).toBe(true);
    expect(['dist/openapi.yaml', 'paths/volumes/volumes.yaml~', 'redocly.yaml', 'test/x.yaml'].some(isSourceFile)).toBe(false);
  });

  it('calls once per burst of changes, with the source files changed, and ignores the rest', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'watch-'));
    for (const sub of ['paths/volumes', 'components/schemas', 'dist']) mkdirSync(path.join(dir, sub), { recursive: true });
    const calls = [];
    watcher = watchSources(dir, (files) => calls.push(files), { debounceMs: 150 });
    await wait(100);
    writeFileSync(path.join(dir, 'paths/volumes/volumes.yaml'), 'get: {}\n');
    writeFileSync(path.join(dir, 'paths/volumes/volumes.yaml'), 'get: {}\npost: {}\n');
    writeFileSync(path.join(dir, 'components/schemas/Volume.yaml'), 'type: object\n');
    writeFileSync(path.join(dir, 'dist/openapi.yaml'), 'openapi: 3.1.0\n');
    await wait(600);
    expect(calls).toEqual([['components/schemas/Volume.yaml', 'paths/volumes/volumes.yaml']]);
    writeFileSync(path.join(dir, 'dist/openapi.json'), '{}');
    await wait(400);
    expect(calls).toHaveLength(1);
  });
});
