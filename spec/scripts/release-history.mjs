// The spec's release history as the API changelog and the release check read it: the release
// tags of the git checkout, the bundle of the spec at each (bundled once per commit and kept in
// node_modules/.cache, since a tag's bundle never changes) and the bundle of the working tree.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiChangelog, releaseTags } from '../lib/changelog.mjs';
import { bundleAtRef, createBundler, gitLocation, specDir as ownSpecDir } from './bundler.mjs';

// A cached bundle is good while the bundler that made it is unchanged.
const CACHE_KEY = createHash('sha256').update(readFileSync(fileURLToPath(new URL('./bundler.mjs', import.meta.url)))).digest('hex').slice(0, 12);

/**
 * @param {{ specDir?: string, current?: object }} [options] the spec folder of a git checkout
 *   (default this one); `current`, its working tree's bundle when the caller has it already
 */
export async function releaseHistory({ specDir = ownSpecDir, current: given } = {}) {
  const where = gitLocation(specDir);
  const cacheDir = path.join(where.repo, 'node_modules', '.cache', 'cloudapi-release-bundles');
  const tags = releaseTags(where.repo);
  async function bundleAt(ref) {
    const commit = execFileSync('git', ['-C', where.repo, 'rev-parse', `${ref}^{commit}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    const cached = path.join(cacheDir, `${commit}-${CACHE_KEY}.json`);
    if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8'));
    const document = await bundleAtRef({ ...where, ref: commit });
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cached, JSON.stringify(document));
    return document;
  }
  const current = given ?? (await (await createBundler({ specDir })).bundle({ text: false })).document;
  return { repo: where.repo, tags, bundleAt, current, changelog: () => apiChangelog({ tags, bundleAt, current }) };
}
