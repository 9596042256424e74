// Writing generated files so that no reader (the mock, the docs server, a build) ever sees half
// a file or a mismatched pair.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `files` ({ name: text }) into `dir`: each is staged beside its target and all are renamed
 * into place only once every one is written.
 */
export function writeAtomically(dir, files) {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, `.${name}.tmp`), text);
  for (const name of Object.keys(files)) renameSync(path.join(dir, `.${name}.tmp`), path.join(dir, name));
}

