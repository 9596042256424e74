// What the designer loop compares each new bundle with: the spec at HEAD.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BundleError, bundleAtRef, commitOf, gitLocation } from '@cloudapi/spec/bundler';

const execFileAsync = promisify(execFile);

/**
 * The bundle changes are compared with: the spec at `ref` (HEAD by default), bundled again
 * whenever the ref moves to another commit (a commit during the session). Outside a git
 * checkout, or when that commit's spec does not bundle, the bundle the session started from,
 * and the name says so.
 */
export function createBaseline({ specDir, ref = 'HEAD', startDocument }) {
  let where = null;
  try {
    where = gitLocation(specDir);
  } catch { /* not a git checkout */ }
  const fallback = (why) => ({ hash: null, document: startDocument, name: `the spec as this session started (${why})` });
  let current = null;

  return {
    /** { document, name, moved }: `moved` is true when the ref names another commit than last time. */
    async get() {
      if (!where) {
        current ??= fallback('not a git checkout');
        return { ...current, moved: false };
      }
      let hash;
      try {
        hash = (await execFileAsync('git', ['-C', where.repo, 'rev-parse', '--verify', `${ref}^{commit}`])).stdout.trim();
      } catch {
        current ??= fallback(`${ref} does not name a commit`);
        return { ...current, moved: false };
      }
      if (current?.hash === hash) return { ...current, moved: false };
      const moved = current !== null;
      try {
        const { subject } = commitOf(where.repo, hash);
        current = { hash, document: await bundleAtRef({ ...where, ref: hash }), name: `${ref} (${hash.slice(0, 7)} "${subject}")` };
      } catch (error) {
        if (!(error instanceof BundleError)) throw error;
        current = { ...fallback(`${ref} (${hash.slice(0, 7)}) does not bundle`), hash };
      }
      return { ...current, moved };
    },
  };
}
