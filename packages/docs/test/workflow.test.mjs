// The repository's GitHub workflows stay valid: every one parses with GitHub's own parser and
// runs only scripts and programs that exist; the docs workflow builds and publishes this site;
// the CI workflow runs .ci/run and, on pull requests, the breaking-change check.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsDistDir } from '../src/serve.mjs';
import { docsWorkflowProblems, workflowEvents, workflowProblems } from './support/workflow.mjs';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const workflowsDir = path.join(rootDir, '.github/workflows');
const read = (name) => readFileSync(path.join(workflowsDir, name), 'utf8');
const packageJson = JSON.parse(readFileSync(path.join(rootDir, 'package.json'), 'utf8'));
const siteDir = path.relative(rootDir, docsDistDir);

describe('every workflow', () => {
  const files = readdirSync(workflowsDir).filter((f) => /\.ya?ml$/.test(f));

  it('there are the docs, the CI and the release workflows', () => {
    expect(files.sort()).toEqual(['ci.yml', 'docs.yml', 'release.yml']);
  });

  it.each(files)('%s is accepted by GitHub\'s parser and runs only what exists', async (name) => {
    expect(await workflowProblems(read(name), { packageJson, rootDir, name })).toEqual([]);
  });

  it('is refused when it breaks the workflow schema, runs a missing program or an unpinned action', async () => {
    const content = read('ci.yml');
    const check = (text) => workflowProblems(text, { packageJson, rootDir, name: 'ci.yml' });
    expect((await check(content.replace('runs-on: ubuntu-latest', 'runs-onn: ubuntu-latest'))).join('\n')).toMatch(/Unexpected value 'runs-onn'/);
    expect(await check(content.replace('./.ci/run', './.ci/missing'))).toEqual(['job test: "./.ci/missing" is not an executable file of the repository']);
    expect(await check(content.replace('actions/checkout@v4', 'actions/checkout@main'))).toEqual(['job test: pin "actions/checkout@main" to a major version or a commit']);
  });
});

describe('the docs publishing workflow', () => {
  const content = read('docs.yml');
  const check = (text, pkg = packageJson) => docsWorkflowProblems(text, { packageJson: pkg, rootDir, siteDir });

  it('builds the site with npm run docs and publishes its folder', async () => {
    expect(siteDir).toBe('packages/docs/dist');
    expect(await check(content)).toEqual([]);
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

describe('the CI workflow', () => {
  const content = read('ci.yml');

  it('runs .ci/run on pushes to main and on pull requests, and the breaking-change check on pull requests', async () => {
    const events = await workflowEvents(content, 'ci.yml');
    expect(events.push?.branches).toContain('main');
    expect(events).toHaveProperty('pull_request');
    expect(content).toMatch(/run: \.\/\.ci\/run/);
    expect(content).toMatch(/if: github\.event_name == 'pull_request'\n\s+run: npm run breaking -- --base "origin\/\$\{\{ github\.base_ref \}\}"/);
    expect(packageJson.scripts.breaking).toBeDefined();
  });
});
