// The data the "Try it" console is built from (src/try-it.mjs): every operation of the bundle,
// prefilled from its own examples, embedded in the built page beside the console's script, and
// no text of the spec able to close the script element it sits in.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { loadBundle } from '@cloudapi/spec/bundle';
import { bodiesOf, mediaExamples, operations } from '@cloudapi/spec/walk';
import { docsDistDir } from '../src/serve.mjs';
import { injectTryIt, tryItData, tryItMarkup } from '../src/try-it.mjs';

const require = createRequire(import.meta.url);
const bundle = loadBundle();
const data = tryItData(bundle);
const all = [...operations(bundle)];

describe('the Try it data', () => {
  it('has every operation once, with its method, path and whether it needs a token', () => {
    expect(data.basePath).toBe(new URL(bundle.servers[0].url).pathname);
    expect(data.operations.map((op) => op.id).sort()).toEqual(all.map((op) => op.operation.operationId).sort());
    for (const op of all) {
      const entry = data.operations.find((e) => e.id === op.operation.operationId);
      expect([entry.method, entry.path]).toEqual([op.method.toUpperCase(), op.path]);
      expect(entry.auth === 'none', op.operation.operationId).toBe((op.operation.security ?? bundle.security ?? []).length === 0);
    }
  });

  it('lists the spec\'s servers as targets, by their description, leaving out URLs with variables', () => {
    expect(data.servers).toEqual(bundle.servers.map((server) => ({ name: server.description, url: server.url.replace(/\/+$/, '') })));
    const other = tryItData({ ...bundle, servers: [{ url: 'https://{region}.api.example/v4' }, { url: 'https://eu.api.example/v4/' }, { url: '/v4' }] });
    expect(other.servers).toEqual([{ name: 'Server 2', url: 'https://eu.api.example/v4' }]);
  });

  it('prefills every path and required parameter from the spec, and leaves optional ones without an example empty', () => {
    for (const op of data.operations) {
      for (const p of op.parameters.filter((q) => q.required)) expect(p.value, `${op.id} ${p.in} ${p.name}`).not.toBe('');
      expect(op.parameters.filter((p) => p.in === 'path').map((p) => `{${p.name}}`).sort(), op.id).toEqual((op.path.match(/\{[^}]+\}/g) ?? []).sort());
    }
  });

  it('offers each JSON body\'s named examples, as the spec has them', () => {
    let bodies = 0;
    for (const op of all) {
      const body = bodiesOf(bundle, op).find((b) => b.kind === 'request' && b.mediaType === 'application/json');
      if (!body) continue;
      const entry = data.operations.find((e) => e.id === op.operation.operationId);
      const named = mediaExamples(bundle, body.media);
      expect(entry.body.examples.map((e) => e.name), op.operation.operationId).toEqual(named.map((e) => e.name));
      expect(entry.body.examples.map((e) => JSON.parse(e.text))).toEqual(named.map((e) => e.value));
      bodies += 1;
    }
    expect(bodies).toBeGreaterThan(10);
  });

  it('keeps a spec text that looks like a closing tag inside the data element', () => {
    const markup = tryItMarkup({ basePath: '/v4', operations: [{ id: 'x', summary: '</script><script>alert(1)</script>' }] }, { script: '/* console */', style: '' });
    const page = injectTryIt('<html><body><main></main></body></html>', markup);
    expect(page.match(/<\/script>/g)).toHaveLength(2); // the data's and the console's own
    expect(page).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script>');
    expect(page.indexOf('/* console */')).toBeLessThan(page.indexOf('</body>'));
  });

  it('is embedded in the built page with the console, as this bundle makes it', () => {
    const file = path.join(docsDistDir, 'index.html');
    if (!existsSync(file)) throw new Error('packages/docs/dist/index.html is missing: run `npm run docs` first.');
    const html = readFileSync(file, 'utf8');
    const embedded = /<script type="application\/json" id="try-it-data">(.*?)<\/script>/s.exec(html);
    expect(JSON.parse(embedded[1])).toEqual(data);
    expect(html).toContain('function tryItConsole()');
    expect(html).toContain('id="try-it-style"');
  });
});
