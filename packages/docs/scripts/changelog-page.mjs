// Writes the API changelog page (src/changelog-page.mjs) of a spec folder from its release records
// (spec/releases: no git history or tag is needed, so a shallow clone, a copy or a tarball gives
// the same page): the docs build calls writeChangelogPage() for dist/changelog.html; run alone,
// `--spec DIR --out DIR` makes the page of another copy of the spec (the changelog test's).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { command, parse } from '@cloudapi/spec/cli';
import { releaseHistory } from '@cloudapi/spec/release-history';
import { changelogPage } from '../src/changelog-page.mjs';

export const CHANGELOG_PAGE = 'changelog.html';

/**
 * @param {{ outDir: string, specDir?: string, current?: object, fileName?: string }} options `current`: the
 *   bundle of the working tree when the caller has it (else the spec folder is bundled)
 * @returns {Promise<{ file: string, sections: number, changes: number }>}
 */
export async function writeChangelogPage({ outDir, specDir, current, fileName = CHANGELOG_PAGE }) {
  const history = await releaseHistory({ specDir, current });
  const changelog = await history.changelog();
  const { info } = history.current;
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, fileName);
  writeFileSync(file, changelogPage(changelog, { title: info.title, version: info.version }));
  return { file, sections: changelog.sections.length, changes: changelog.sections.reduce((n, s) => n + s.changes.length, 0) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = parse(command('changelog-page', 'Writes the API changelog page (changelog.html) of a spec folder, from its release records.')
    .requiredOption('--out <dir>', 'the folder to write changelog.html in')
    .option('--spec <dir>', 'the spec folder (default this repository\'s)'));
  const written = await writeChangelogPage({ outDir: path.resolve(options.out), specDir: options.spec && path.resolve(options.spec) });
  console.log(`✔ ${written.file}: ${written.sections} section(s), ${written.changes} change(s)`);
}
