// .github/workflows/docs.yml stays a valid GitHub workflow that builds and publishes this site.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsDistDir } from '../src/serve.mjs';
import { workflowProblems } from './support/workflow.mjs';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const content = readFileSync(path.join(rootDir, '.github/workflows/docs.yml'), 'utf8');
const packageJson = JSON.parse(readFileSync(path.join(rootDir, 'package.json'), 'utf8'));
const siteDir = path.relative(rootDir, docsDistDir);
const check = (text, pkg = packageJson) => workflowProblems(text, { packageJson: pkg, siteDir });

describe('the docs publishing workflow', () => {
  it('is accepted by GitHub\'s workflow parser and runs only scripts that exist', async () => {
    expect(siteDir).toBe('packages/docs/dist');
    expect(await check(content)).toEqual([]);
  });

  it('is refused when it breaks the workflow schema', async () => {
    const problems = await check(content.replace('runs-on: ubuntu-latest', 'runs-onn: ubuntu-latest'));
    expect(problems.join('\n')).toMatch(/Unexpected value 'runs-onn'/);
    expect((await check(content.replace('on:\n', 'onn:\n'))).length).toBeGreaterThan(0);
  });

  it('is refused when a script it runs is gone or the folder it publishes moved', async () => {
    const { docs, ...withoutDocs } = packageJson.scripts;
    expect(docs).toBeDefined();
    expect(await check(content, { ...packageJson, scripts: withoutDocs })).toEqual([
      expect.stringContaining('"npm run docs" names no script of package.json'),
    ]);
    expect(await check(content.replace('path: packages/docs/dist', 'path: docs/dist')))
      .toEqual(['the uploaded folder is "docs/dist", but `npm run docs` writes packages/docs/dist']);
    expect(await check(content.replace('branches: [main]', 'branches: [release]'))).toEqual(['it must run on pushes to main']);
    expect(await check(content.replace('actions/deploy-pages@v4', 'actions/deploy-pages@main')))
      .toEqual(['job deploy: pin "actions/deploy-pages@main" to a major version or a commit']);
  });
});
