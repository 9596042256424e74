// Watches the spec's sources (openapi.yaml, paths/, components/) and its style guide
// (redocly.yaml, .spectral.yaml, style/) and calls `onChange` once per burst of changes with the
// files whose content really changed.
//
// chokidar does the watching: on Linux, fs.watch follows inodes, so after an editor's atomic save
// (write a temporary file, rename it over the original) a hand-rolled watcher stops seeing the
// file; chokidar re-attaches, and reports new, deleted and renamed files and directories.
// Events only say "look at this file": the file is read when the burst is over and compared with
// what it held before, so an editor's extra writes, a touch or a save with no edit report nothing,
// and the list names exactly the files whose content changed.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { watch } from 'chokidar';

// Top-level entries of the spec folder that the designer loop depends on.
const WATCHED = ['openapi.yaml', 'paths', 'components', 'redocly.yaml', '.spectral.yaml', 'style'];

const posix = (relative) => relative.split(path.sep).join('/');
// Hidden files, editor backups (`x.yaml~`), swap and lock files (`.x.yaml.swp`, `.#x.yaml`).
const isEditorLeftover = (file) => /(^|\/)[.#][^/]*$|~$/.test(file);

/** A spec source: the root document or a YAML file under paths/ or components/. */
export function isSourceFile(relative) {
  const file = posix(relative);
  if (isEditorLeftover(file)) return false;
  return file === 'openapi.yaml' || /^(paths|components)\/.+\.ya?ml$/.test(file);
}

/** A file of the style guide: the Redocly and Spectral configurations and the rule functions. */
export function isStyleFile(relative) {
  const file = posix(relative);
  if (file === 'redocly.yaml' || file === '.spectral.yaml') return true;
  return !isEditorLeftover(file) && /^style\/.+\.(ya?ml|m?js|json)$/.test(file);
}

const digest = (text) => createHash('sha1').update(text).digest('hex');

/**
 * @param {string} specDir the spec folder
 * @param {(changes: Array<{file: string, change: 'added'|'changed'|'removed'}>, burst: { since: number }) => void} onChange
 *   called once per burst, with the changes sorted by file (paths relative to specDir, with `/`)
 *   and when the burst's first event came (Date.now() time): the save, for timing what follows
 * @param {object} [options]
 * @param {number} [options.debounceMs] quiet time that ends a burst
 * @param {number} [options.maxWaitMs] longest a burst is held back while changes keep coming
 * @param {(error: Error) => void} [options.onError]
 * @returns {{ ready: Promise<void>, close: () => Promise<void> }} `ready` resolves once the
 *   initial scan is done: changes made before it are part of the starting state.
 */
export function watchSources(specDir, onChange, { debounceMs = 80, maxWaitMs = 1000, onError = () => {} } = {}) {
  const root = path.resolve(specDir);
  const known = new Map(); // relative file → digest of its content
  const touched = new Set();
  let scanning = true;
  let timer = null;
  let firstTouch = 0;

  const relevant = (file) => isSourceFile(file) || isStyleFile(file);
  const read = (file) => {
    try {
      return digest(readFileSync(path.join(root, file)));
    } catch (error) {
      if (error.code === 'ENOENT' || error.code === 'EISDIR') return null;
      throw error;
    }
  };

  function flush() {
    timer = null;
    const changes = [];
    for (const file of [...touched].sort()) {
      touched.delete(file);
      const before = known.get(file) ?? null;
      let after;
      try {
        after = read(file);
      } catch (error) {
        onError(error);
        continue;
      }
      if (after === before) continue;
      if (after === null) known.delete(file);
      else known.set(file, after);
      changes.push({ file, change: before === null ? 'added' : after === null ? 'removed' : 'changed' });
    }
    if (changes.length) onChange(changes, { since: firstTouch });
  }

  function touch(file) {
    if (!relevant(file)) return;
    touched.add(file);
    if (scanning) return;
    const now = Date.now();
    if (!timer) firstTouch = now;
    clearTimeout(timer);
    // A burst ends after `debounceMs` of quiet, or at the latest `maxWaitMs` after it began.
    timer = setTimeout(flush, Math.max(0, Math.min(debounceMs, firstTouch + maxWaitMs - now)));
  }

  // Everything known under a folder, and everything now in it: a folder that vanished or
  // appeared (created, deleted, renamed) is checked file by file, whatever events it gave.
  function touchFolder(folder) {
    const prefix = `${folder}/`;
    for (const file of known.keys()) if (file.startsWith(prefix)) touch(file);
    const full = path.join(root, folder);
    if (!existsSync(full)) return;
    try {
      for (const entry of readdirSync(full, { recursive: true, withFileTypes: true })) {
        if (entry.isFile()) touch(posix(path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name))));
      }
    } catch (error) {
      if (error.code !== 'ENOENT') onError(error);
    }
  }

  const watcher = watch(root, {
    ignoreInitial: false,
    // Only the entries the loop depends on: not dist/ (the loop writes it), node_modules/, test/.
    ignored: (full) => {
      const relative = path.relative(root, full);
      return relative !== '' && !WATCHED.includes(posix(relative).split('/')[0]);
    },
  });
  watcher.on('all', (event, full) => {
    const file = posix(path.relative(root, full));
    if (event === 'addDir' || event === 'unlinkDir') {
      if (!scanning) touchFolder(file);
    } else {
      touch(file);
    }
  });
  watcher.on('error', (error) => onError(error));

  const ready = new Promise((resolve) => {
    watcher.once('ready', () => {
      for (const file of touched) {
        const content = read(file);
        if (content !== null) known.set(file, content);
      }
      touched.clear();
      scanning = false;
      resolve();
    });
  });

  return {
    ready,
    async close() {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
