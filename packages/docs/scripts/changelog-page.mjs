// Writes the API changelog page (src/changelog-page.mjs) of a git checkout's spec: the docs build
// calls writeChangelogPage() for dist/changelog.html; run alone, `--spec DIR --out DIR` makes the
// page of another checkout (the changelog test's clone).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { command, parse } from '@cloudapi/spec/cli';
import { releaseHistory } from '@cloudapi/spec/release-history';
import { CHANGELOG_PAGE, changelogPage } from '../src/changelog-page.mjs';

export { CHANGELOG_PAGE };

/**
 * @param {{ outDir: string, specDir?: string, current?: object, fileName?: string }} options `current`: the
 *   bundle of the working tree when the caller has it (else the spec folder is bundled)
 * @returns {Promise<{ file: string, sections: number, changes: number }>}
 */
export async function writeChangelogPage({ outDir, specDir, current, fileName = CHANGELOG_PAGE }) {
  let changelog;
  let document = current;
  try {
    const history = await releaseHistory({ specDir, current });
    changelog = await history.changelog();
    document = history.current;
  } catch (error) {
    // Built from a copy without git (a source archive): the page says the history is missing.
    if (!current || !/not a git repository/i.test(String(error.stderr ?? error.message))) throw error;
    console.warn('⚠ docs: no git history here, so the API changelog page says it has none.');
    changelog = { tags: [], sections: [], noHistory: true };
  }
  const { info } = document;
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, fileName);
  writeFileSync(file, changelogPage(changelog, { title: info.title, version: info.version }));
  return { file, sections: changelog.sections.length, changes: changelog.sections.reduce((n, s) => n + s.changes.length, 0) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = parse(command('changelog-page', 'Writes the API changelog page (changelog.html) of a git checkout\'s spec.')
    .requiredOption('--out <dir>', 'the folder to write changelog.html in')
    .option('--spec <dir>', 'the spec folder of the checkout (default this repository\'s)'));
  const written = await writeChangelogPage({ outDir: path.resolve(options.out), specDir: options.spec && path.resolve(options.spec) });
  console.log(`✔ ${written.file}: ${written.sections} section(s), ${written.changes} change(s)`);
}
