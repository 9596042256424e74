// Watches the spec's sources (openapi.yaml, paths/, components/) and calls `onChange` with the
// files changed, once per burst of changes (editors write a file several times on save).
import { watch } from 'node:fs';
import path from 'node:path';

export function isSourceFile(relative) {
  const file = relative.split(path.sep).join('/');
  return file === 'openapi.yaml' || /^(paths|components)\/.+\.ya?ml$/.test(file);
}

export function watchSources(specDir, onChange, { debounceMs = 250 } = {}) {
  const changed = new Set();
  let timer;
  const watcher = watch(specDir, { recursive: true }, (event, filename) => {
    if (!filename || !isSourceFile(filename)) return;
    changed.add(filename.split(path.sep).join('/'));
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed].sort();
      changed.clear();
      onChange(files);
    }, debounceMs);
  });
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
