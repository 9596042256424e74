// `npm run docs` (through Turbo): writes dist/index.html, a self-contained Redoc page of a
// docs-only copy of the bundle (code samples, vendor extensions in words, see src/derive.mjs;
// the "Try it" console, src/try-it.mjs),
// and beside it the spec's bundle unchanged as dist/openapi.yaml and dist/openapi.json, and its
// OpenAPI 3.0.3 edition as dist/openapi.3.0.{yaml,json}, and a Postman collection converted from
// that edition (src/postman.mjs): the page's download links. Everything is staged and renamed into place only when all is ready.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultBundleFile, loadBundle } from '@cloudapi/spec/bundle';
import { operations } from '@cloudapi/spec/walk';
import { deriveDocsDocument } from '../src/derive.mjs';
import { cdnReferences, inlineCdnAssets, svgDataUri } from '../src/offline.mjs';
import { POSTMAN_COLLECTION_FILE, postmanCollection } from '../src/postman.mjs';
import { injectTryIt, tryItData, tryItMarkup } from '../src/try-it.mjs';
import { CHANGELOG_PAGE, writeChangelogPage } from './changelog-page.mjs';

const require = createRequire(import.meta.url);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();

// --bundle DIR builds from another bundle (openapi.json, openapi.yaml and their 3.0 edition in DIR), --out DIR
// writes elsewhere: for trying the page on a larger or changed spec without touching spec/.
const option = (name) => { const i = process.argv.indexOf(name); return i > 0 ? path.resolve(process.argv[i + 1]) : null; };
const distDir = option('--out') ?? path.join(packageDir, 'dist');
const bundleDir = option('--bundle');
// --page-only: the page and the 3.1 bundle only, leaving the 3.0 edition, the Postman
// collection and the API changelog page as they are (the designer loop's preview, which must be quick; `npm run build`
// refreshes them).
const pageOnly = process.argv.includes('--page-only');

function redoclyBin() {
  const manifestPath = require.resolve('@redocly/cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8'));
  return path.join(path.dirname(manifestPath), typeof bin === 'string' ? bin : bin.redocly);
}

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [redoclyBin(), ...args], {
      cwd: packageDir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: output.replace(/\s*╔[\s\S]*?╝\n?/g, '\n').trim() }));
  });
}

const bundleFiles = Object.fromEntries(['openapi.json', 'openapi.yaml', ...(pageOnly ? [] : ['openapi.3.0.json', 'openapi.3.0.yaml'])]
  .map((name) => [name, bundleDir ? path.join(bundleDir, name) : defaultBundleFile(name)]));
const bundle = loadBundle(bundleFiles['openapi.json']);
const asset = (name) => readFileSync(path.join(packageDir, 'assets', name), 'utf8');
const derived = deriveDocsDocument(bundle, {
  logo: { url: svgDataUri(asset('logo.svg')), altText: bundle.info.title, href: bundle.info.contact?.url },
});
derived.info.description = `${derived.info.description ?? ''}\n\nWhat changed between releases, breaking changes marked: the [API changelog](${CHANGELOG_PAGE}).`;

const scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-docs-'));
try {
  const derivedPath = path.join(scratch, 'openapi.docs.json');
  const pagePath = path.join(scratch, 'index.html');
  writeFileSync(derivedPath, JSON.stringify(derived));
  const title = `${bundle.info.title} ${bundle.info.version} reference`;
  const rendering = run([
    'build-docs', derivedPath, '--inlineBundle', '--config', 'redocly.yaml', '--template', 'template.hbs',
    '--title', title, '--output', pagePath,
    '--templateOptions.description', bundle.info.summary ?? title,
    '--templateOptions.icon', svgDataUri(asset('logo.svg')),
  ]);
  // The collection is converted while Redocly renders the page in its own process.
  const converting = pageOnly ? Promise.resolve(null) : postmanCollection(readFileSync(bundleFiles['openapi.3.0.json'], 'utf8'));
  converting.catch(() => {}); // awaited below; a failure before then must not go unhandled
  const { code, output } = await rendering;
  if (code !== 0) {
    console.error(output);
    console.error('\n✖ redocly build-docs failed (output above); packages/docs/dist was left as it was.');
    process.exit(1);
  }
  const inlined = inlineCdnAssets(readFileSync(pagePath, 'utf8'), svgDataUri(asset('redocly-attribution.svg')));
  const { replaced } = inlined;
  // The "Try it" console, inlined like Redoc itself: the page still needs no other file.
  const html = injectTryIt(inlined.html, tryItMarkup(tryItData(bundle), { script: asset('try-it.js'), style: asset('try-it.css') }));
  const remaining = cdnReferences(html);
  if (remaining.length) {
    console.error(`✖ the page still names CDN assets: ${[...new Set(remaining)].join(', ')}.\n` +
      '  Inline them in src/offline.mjs (the page must render with no network).');
    process.exit(1);
  }

  mkdirSync(distDir, { recursive: true });
  writeFileSync(path.join(distDir, '.index.html.tmp'), html);
  for (const [name, from] of Object.entries(bundleFiles)) copyFileSync(from, path.join(distDir, `.${name}.tmp`));
  // The API changelog from the spec's release records and this bundle; the designer loop's
  // preview (--page-only) keeps the last one.
  const changelog = pageOnly ? null : await writeChangelogPage({ outDir: distDir, current: bundle, fileName: `.${CHANGELOG_PAGE}.tmp` });
  const collection = await converting;
  if (collection) writeFileSync(path.join(distDir, `.${POSTMAN_COLLECTION_FILE}.tmp`), `${JSON.stringify(collection)}\n`);
  for (const name of ['index.html', ...(changelog ? [CHANGELOG_PAGE] : []), ...Object.keys(bundleFiles), ...(collection ? [POSTMAN_COLLECTION_FILE] : [])]) renameSync(path.join(distDir, `.${name}.tmp`), path.join(distDir, name));

  const count = [...operations(derived)].length;
  console.log(`✔ docs: ${count} operations with code samples, ${replaced} CDN logo references inlined → ` +
    `${path.relative(path.resolve(packageDir, '../..'), path.join(distDir, 'index.html'))} (${Math.round(Buffer.byteLength(html) / 1024)} KiB), ${changelog ? `${CHANGELOG_PAGE} (${changelog.changes} changes), ` : ''}openapi.{yaml,json}${pageOnly ? ' (--page-only)' : `, openapi.3.0.{yaml,json} and ${POSTMAN_COLLECTION_FILE}`} (${Date.now() - started} ms)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
