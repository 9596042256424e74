// What the documentation page shows, derived from the bundle: the docs-only copy Redoc renders
// (src/derive.mjs, with the page's logo and a link to the API changelog) and the Try it console's
// data (src/try-it.mjs). The build puts both in the page (scripts/build.mjs); `npm run dev` sends
// them to the pages already open (src/live.mjs), so both show the same thing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHANGELOG_PAGE } from './changelog-page.mjs';
import { deriveDocsDocument } from './derive.mjs';
import { svgDataUri } from './offline.mjs';
import { tryItData } from './try-it.mjs';

const assetsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'assets');

/** A file of the page's assets (assets/), as text. */
export const docsAsset = (name) => readFileSync(path.join(assetsDir, name), 'utf8');

/**
 * @param {object} bundle the spec's bundle (not modified)
 * @returns {{ definition: object, tryIt: ReturnType<typeof tryItData> }}
 */
export function pageData(bundle) {
  const definition = deriveDocsDocument(bundle, {
    logo: { url: svgDataUri(docsAsset('logo.svg')), altText: bundle.info.title, href: bundle.info.contact?.url },
  });
  definition.info.description = `${definition.info.description ?? ''}\n\nWhat changed between releases, breaking changes marked: the [API changelog](${CHANGELOG_PAGE}).`;
  return { definition, tryIt: tryItData(bundle) };
}
