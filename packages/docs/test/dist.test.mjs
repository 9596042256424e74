// What `npm run docs` wrote: a self-contained page beside the spec's bundle, unchanged.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { loadBundle } from '@cloudapi/spec/bundle';
import { operations } from '@cloudapi/spec/walk';
import { cdnReferences, CDN_LOGOS, inlineCdnAssets } from '../src/offline.mjs';
import { docsDistDir } from '../src/serve.mjs';

const require = createRequire(import.meta.url);
const bundle = loadBundle();
const html = readFileSync(path.join(docsDistDir, 'index.html'), 'utf8');

describe('the built site', () => {
  it('ships the spec bundle unchanged beside the page, for its download links', () => {
    for (const name of ['openapi.yaml', 'openapi.json', 'openapi.3.0.yaml', 'openapi.3.0.json']) {
      expect(readFileSync(path.join(docsDistDir, name), 'utf8'), name).toBe(readFileSync(require.resolve(`@cloudapi/spec/${name}`), 'utf8'));
    }
  });

  it('is titled for the API and its release', () => {
    expect(html).toContain(`<title>${bundle.info.title} ${bundle.info.version} reference</title>`);
    expect(html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,/);
  });

  it('has a <base> in its head that names no URL (Redoc\'s router looks one up for every link; without it the lookup walks the page)', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head.match(/<base\b[^>]*>/g)).toEqual(['<base target="_self">']);
  });

  it('inlines Redoc and names no CDN or remote asset in its markup', () => {
    expect(cdnReferences(html)).toEqual([]);
    const markup = html.replace(/<script type="module">[\s\S]*?<\/script>/g, '');
    expect(markup.match(/<(script|link|img|iframe|source)\b[^>]*\b(src|href)="(https?:)?\/\/[^"]*"/g) ?? []).toEqual([]);
    expect(html).toMatch(/<script type="module">/);
    expect(html).not.toMatch(/<script[^>]+src=/);
  });

  it('embeds every operation of the bundle with its code samples', () => {
    const match = /const __redoc_definition = (\{.*\});\n/.exec(html);
    expect(match).not.toBeNull();
    const embedded = JSON.parse(match[1]);
    const ops = [...operations(bundle)];
    expect(ops.length).toBeGreaterThan(0);
    for (const op of ops) {
      const shown = embedded.paths[op.path]?.[op.method];
      expect(shown?.operationId, `${op.method} ${op.path}`).toBe(op.operation.operationId);
      expect(shown['x-codeSamples'].map((s) => s.label)).toEqual(['curl', '@cloudapi/client']);
    }
  });
});

describe('inlineCdnAssets and cdnReferences', () => {
  it('replace and find the CDN logos', () => {
    const page = `<img src="${CDN_LOGOS[0]}"> e?"${CDN_LOGOS[0]}":"${CDN_LOGOS[1]}"`;
    expect(cdnReferences(page)).toEqual([CDN_LOGOS[0], CDN_LOGOS[0], CDN_LOGOS[1]]);
    const { html: inlined, replaced } = inlineCdnAssets(page, 'data:image/svg+xml,x');
    expect(replaced).toBe(3);
    expect(cdnReferences(inlined)).toEqual([]);
    expect(cdnReferences('import { hydrate } from "https://cdn.redocly.com/redoc/v3.0.1/bundles/redoc.standalone.js"'))
      .toEqual(['https://cdn.redocly.com/redoc/v3.0.1/bundles/redoc.standalone.js']);
  });
});
