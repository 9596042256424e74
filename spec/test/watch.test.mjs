// `npm run dev`'s trigger, on real files in a temp folder: every kind of save an editor makes is
// seen, however many came before it, and a burst of writes gives one call naming the files whose
// content changed. Waits end on events, with generous limits for a loaded machine; a "nothing
// else was reported" check writes a sentinel file afterwards and expects the next call to name
// only it, so no outcome depends on a sleep.
import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isSourceFile, isStyleFile, watchSources } from '../lib/watch.mjs';

const LIMIT_MS = 30_000;
let dir;
let watcher;

afterEach(async () => {
  await watcher?.close();
  watcher = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A watched temp spec folder, and a way to wait for the watcher's next call. */
async function setUp(options = {}) {
  dir = mkdtempSync(path.join(os.tmpdir(), 'watch-'));
  for (const sub of ['paths/regions', 'components/schemas/regions', 'dist']) mkdirSync(path.join(dir, sub), { recursive: true });
  writeFileSync(path.join(dir, 'openapi.yaml'), 'openapi: 3.1.0\n');
  writeFileSync(path.join(dir, 'components/schemas/regions/Region.yaml'), 'type: object\n');
  writeFileSync(path.join(dir, 'paths/regions/regions.yaml'), 'get: {}\n');
  const calls = [];
  const waiting = [];
  watcher = watchSources(dir, (changes) => {
    calls.push(changes);
    waiting.shift()?.resolve(changes);
  }, { onError: (error) => waiting.shift()?.reject(error), ...options });
  await watcher.ready;
  let seen = 0;
  const next = () => {
    if (calls.length > seen) return Promise.resolve(calls[seen++]);
    seen++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no change reported within ${LIMIT_MS} ms; calls so far: ${JSON.stringify(calls)}`)), LIMIT_MS);
      waiting.push({ resolve: (v) => { clearTimeout(timer); resolve(v); }, reject: (e) => { clearTimeout(timer); reject(e); } });
    });
  };
  return { next, calls, file: (relative) => path.join(dir, relative) };
}

/** What an editor with "safe write" does: write a temporary file beside it, rename it over. */
function atomicSave(file, text) {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

const changed = (file) => [{ file, change: 'changed' }];

describe('which files the watcher reports', () => {
  it('knows the sources and the style guide, not the bundle, tests or editor leftovers', () => {
    expect(['openapi.yaml', 'paths/volumes/volumes.yaml', 'components/schemas/volumes/Volume.yaml'].every(isSourceFile)).toBe(true);
    expect(['dist/openapi.yaml', 'paths/volumes/volumes.yaml~', 'paths/volumes/.volumes.yaml.swp', 'paths/volumes/.#volumes.yaml',
      'paths/volumes/.volumes.yaml.123.tmp', 'redocly.yaml', 'test/x.yaml'].some(isSourceFile)).toBe(false);
    expect(['redocly.yaml', '.spectral.yaml', 'style/functions/errorResponses.js', 'style/spectral-sources.yaml'].every(isStyleFile)).toBe(true);
    expect(['openapi.yaml', 'scripts/lint.mjs', 'style/functions/.errorResponses.js.swp'].some(isStyleFile)).toBe(false);
  });
});

describe('watchSources on real files', () => {
  it('sees a save, an atomic save, and every save after it', async () => {
    const { next, file } = await setUp();
    const region = 'components/schemas/regions/Region.yaml';
    writeFileSync(file(region), 'type: object\ndescription: one\n');
    expect(await next()).toEqual(changed(region));
    atomicSave(file(region), 'type: object\ndescription: two\n');
    expect(await next()).toEqual(changed(region));
    writeFileSync(file(region), 'type: object\ndescription: three\n');
    expect(await next()).toEqual(changed(region));
    atomicSave(file(region), 'type: object\ndescription: four\n');
    expect(await next()).toEqual(changed(region));
    writeFileSync(file(region), 'type: object\ndescription: five\n');
    expect(await next()).toEqual(changed(region));
  }, 120_000);

  it('sees a new file and a deleted file', async () => {
    const { next, file } = await setUp();
    writeFileSync(file('components/schemas/regions/RegionList.yaml'), 'type: array\n');
    expect(await next()).toEqual([{ file: 'components/schemas/regions/RegionList.yaml', change: 'added' }]);
    rmSync(file('paths/regions/regions.yaml'));
    expect(await next()).toEqual([{ file: 'paths/regions/regions.yaml', change: 'removed' }]);
  }, 120_000);

  it('sees a new folder with files, a deleted folder, and files saved in a new folder later', async () => {
    const { next, file } = await setUp();
    mkdirSync(file('paths/volumes/nested'), { recursive: true });
    writeFileSync(file('paths/volumes/volumes.yaml'), 'get: {}\n');
    writeFileSync(file('paths/volumes/nested/attach.yaml'), 'post: {}\n');
    expect(await next()).toEqual([
      { file: 'paths/volumes/nested/attach.yaml', change: 'added' },
      { file: 'paths/volumes/volumes.yaml', change: 'added' },
    ]);
    atomicSave(file('paths/volumes/volumes.yaml'), 'get: {}\npost: {}\n');
    expect(await next()).toEqual(changed('paths/volumes/volumes.yaml'));
    rmSync(file('paths/volumes'), { recursive: true });
    expect(await next()).toEqual([
      { file: 'paths/volumes/nested/attach.yaml', change: 'removed' },
      { file: 'paths/volumes/volumes.yaml', change: 'removed' },
    ]);
  }, 120_000);

  it('sees a renamed file and a renamed folder as files removed and added', async () => {
    const { next, file } = await setUp();
    const seenUntil = async (count) => {
      const all = [];
      while (all.length < count) all.push(...await next());
      return all.sort((a, b) => a.file.localeCompare(b.file));
    };
    renameSync(file('components/schemas/regions/Region.yaml'), file('components/schemas/regions/Area.yaml'));
    expect(await seenUntil(2)).toEqual([
      { file: 'components/schemas/regions/Area.yaml', change: 'added' },
      { file: 'components/schemas/regions/Region.yaml', change: 'removed' },
    ]);
    renameSync(file('paths/regions'), file('paths/areas'));
    expect(await seenUntil(2)).toEqual([
      { file: 'paths/areas/regions.yaml', change: 'added' },
      { file: 'paths/regions/regions.yaml', change: 'removed' },
    ]);
    writeFileSync(file('paths/areas/regions.yaml'), 'get: {}\nput: {}\n');
    expect(await next()).toEqual(changed('paths/areas/regions.yaml'));
  }, 120_000);

  it('sees an editor\'s backup dance (the original renamed to a backup, a new file written, the backup removed) as one change', async () => {
    const { next, file } = await setUp();
    const region = 'components/schemas/regions/Region.yaml';
    for (const text of ['type: object\ndescription: backed up once\n', 'type: object\ndescription: backed up twice\n']) {
      renameSync(file(region), file(`${region}~`));
      writeFileSync(file(region), text);
      rmSync(file(`${region}~`));
      expect(await next()).toEqual(changed(region));
    }
    writeFileSync(file('openapi.yaml'), 'openapi: 3.1.0\n# sentinel\n');
    expect(await next()).toEqual(changed('openapi.yaml'));
  }, 120_000);

  it('gives one call for a burst of saves to several files', async () => {
    // A long quiet time: a burst written in one go cannot be split by a slow machine.
    const { next, file } = await setUp({ debounceMs: 400, maxWaitMs: 10_000 });
    for (let i = 0; i < 20; i++) {
      writeFileSync(file('paths/regions/regions.yaml'), `get: {}\n# save ${i}\n`);
      atomicSave(file('components/schemas/regions/Region.yaml'), `type: object\n# save ${i}\n`);
    }
    expect(await next()).toEqual([
      { file: 'components/schemas/regions/Region.yaml', change: 'changed' },
      { file: 'paths/regions/regions.yaml', change: 'changed' },
    ]);
    writeFileSync(file('openapi.yaml'), 'openapi: 3.1.0\n# sentinel\n');
    expect(await next()).toEqual(changed('openapi.yaml'));
  }, 120_000);

  it('reports nothing for the bundle, editor leftovers, a touch or a save without an edit', async () => {
    const { next, file } = await setUp();
    writeFileSync(file('dist/openapi.yaml'), 'openapi: 3.1.0\n');
    writeFileSync(file('paths/regions/.regions.yaml.swp'), 'x');
    writeFileSync(file('paths/regions/regions.yaml~'), 'x');
    writeFileSync(file('paths/regions/regions.yaml'), 'get: {}\n'); // the same content
    utimesSync(file('components/schemas/regions/Region.yaml'), new Date(), new Date());
    writeFileSync(file('redocly.yaml'), 'extends: [recommended]\n');
    expect(await next()).toEqual([{ file: 'redocly.yaml', change: 'added' }]);
  }, 120_000);
});
