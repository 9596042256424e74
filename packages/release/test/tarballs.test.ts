// Every publishable package as a consumer gets it: packed with `npm pack` (prepack included, by
// the pack task: test-support/tarballs.mjs), installed from the tarballs alone into a fresh folder
// outside the workspace, then used: a strict TypeScript program in ESM and in CJS against the
// installed mock on an ephemeral port, the consumer smoke (the installed bins and the contract
// kit against the installed mock), and publint and arethetypeswrong on each tarball.
//
// What runs in processes of its own (npm publish --dry-run, the compile, the programs it writes,
// the smoke) starts as soon as what it needs is there, and the tests await its result: so the
// compile and the smoke run beside the checks made in this process (publint, arethetypeswrong).
import { copyFileSync, lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryScratch } from '../../../test-support/scratch.mjs';
import { packedTarballs, provideSqliteBinding } from '../../../test-support/tarballs.mjs';
import { allWorkspaces, describeRun, publishable, removeTree, repoRoot, run, type Run, type Workspace } from './support/npm.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const releaseManifest = JSON.parse(readFileSync(path.join(here, '..', 'package.json'), 'utf8'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Packed { workspace: Workspace; tarball: string; files: string[] }

let scratch = '';
let app = '';
let installOutput = '';
const packed: Packed[] = [];
// Started in beforeAll, awaited by the tests that check them.
let published: Promise<Run[]>;
let compiled: Promise<Run>;
let ranEsm: Promise<Run>;
let ranCjs: Promise<Run>;
let smoked: Promise<Run>;

/**
 * The compiler: the workspace's TypeScript, the version this package pins (a consumer installing
 * that version gets the same compiler and the same standard library); it reads the consumer's
 * tsconfig.json, which finds @types/node and the packages in the consumer's node_modules.
 */
function typescriptCompiler(): string {
  const require = createRequire(path.join(here, '..', 'package.json'));
  const manifest = require.resolve('typescript/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
  if (version !== releaseManifest.devDependencies.typescript) throw new Error(`the workspace's TypeScript is ${version}, package.json pins ${releaseManifest.devDependencies.typescript}: run npm install`);
  return path.join(path.dirname(manifest), 'bin', 'tsc');
}

beforeAll(async () => {
  // In memory where it can be: npm writes some 18,000 files there (test-support/scratch.mjs).
  scratch = memoryScratch('cloudapi-release-');
  // The tarballs of the pack task (turbo.json: this test depends on every publishable package's).
  const workspaces = publishable();
  const tarballs = packedTarballs(workspaces.map(({ manifest }) => manifest.name));
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0).padStart(6)} KiB`;
  console.log(['tarball sizes (packed, unpacked):', ...tarballs.map((entry) => `  ${entry.name.padEnd(22)} ${kib(entry.size)} ${kib(entry.unpackedSize)}  ${entry.files.length} files`)].join('\n'));
  for (const workspace of workspaces) {
    const entry = tarballs.find(({ name }) => name === workspace.manifest.name)!;
    packed.push({ workspace, tarball: entry.tarball, files: entry.files });
  }
  // npm publish needs only the tarball: its nine processes run while npm installs.
  published = Promise.all(packed.map(({ tarball }) => run(npm, ['publish', '--dry-run', tarball], { cwd: scratch })));

  // The consumer: its own package.json, no workspace above it, the tarballs and @types/node.
  app = path.join(scratch, 'app');
  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`);
  for (const name of readdirSync(path.join(here, 'consumer'))) copyFileSync(path.join(here, 'consumer', name), path.join(app, name));
  const { '@types/node': typesNode } = releaseManifest.devDependencies;
  // --prefer-offline: third-party packages come from the npm cache that the workspace's own
  // install filled; only what is missing there is asked of the registry.
  const install = await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts',
    ...packed.map(({ tarball }) => tarball), `@types/node@${typesNode}`], { cwd: app, timeoutMs: 300_000 });
  if (install.code !== 0) throw new Error(describeRun('npm install of the tarballs', install));
  installOutput = `${install.stdout}\n${install.stderr}`;
  // The server's SQLite driver is a native module; the other packages' scripts stay off.
  await provideSqliteBinding(app, (command, args, cwd) => run(command, args, { cwd, timeoutMs: 600_000 }));

  // The compile, then the two programs it wrote side by side; the smoke meanwhile. Each program
  // and the smoke start their own servers on ephemeral ports and keep their data apart.
  compiled = run(process.execPath, [typescriptCompiler(), '-p', 'tsconfig.json'], { cwd: app, timeoutMs: 300_000 });
  const afterCompile = (program: string) => compiled.then((tsc) => (tsc.code === 0 ? run(process.execPath, [program], { cwd: app }) : { code: -1, stdout: '', stderr: 'not run: the compile failed' }));
  ranEsm = afterCompile('out/esm.mjs');
  ranCjs = afterCompile('out/cjs.cjs');
  // The same script scripts/node-matrix.mjs runs on Node 22 and 24 (npm run smoke:node).
  copyFileSync(path.join(here, '..', 'smoke', 'consumer-smoke.mjs'), path.join(app, 'smoke.mjs'));
  smoked = run(process.execPath, ['smoke.mjs'], { cwd: app, timeoutMs: 300_000 });
}, 840_000);

afterAll(async () => {
  // Nothing started above may still be writing into the folder when it goes.
  await Promise.allSettled([published, compiled, ranEsm, ranCjs, smoked]);
  await removeTree(scratch);
});

describe('the tarballs', () => {
  it('are one per publishable workspace, each with its README, LICENSE and no tests', () => {
    expect(packed.map(({ workspace }) => workspace.manifest.name).sort()).toEqual(publishable().map(({ manifest }) => manifest.name).sort());
    for (const { workspace, files } of packed) {
      expect(files, workspace.dir).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
      expect(files.filter((file) => /(^|\/)(test|tests|__tests__)\/|\.test\.[cm]?[jt]s$|vitest\.config/.test(file)), workspace.dir).toEqual([]);
      // Nothing a consumer does not run: build logs, tool configs, TypeScript sources, source maps.
      expect(files.filter((file) => /(^|\/)\.turbo\/|(^|\/)tsconfig[^/]*\.json$|tsup\.config|turbo\.json$|\.log$|(?<!\.d)\.[cm]?ts$|\.map$/.test(file)), workspace.dir).toEqual([]);
    }
  });

  it('ship what the mock serves and the declarations of every JavaScript entry point', () => {
    const filesOf = (name: string) => packed.find(({ workspace }) => workspace.manifest.name === name)?.files ?? [];
    expect(filesOf('@cloudapi/mock')).toContain('dist/openapi.mock.json');
    for (const { workspace, files } of packed) {
      for (const [subpath, target] of Object.entries(workspace.manifest.exports as Record<string, unknown>)) {
        if (typeof target === 'string') {
          // Data, not modules: the bundles and the manifest.
          expect(target, `${workspace.manifest.name} ${subpath}`).toMatch(/\.(json|yaml)$/);
          expect(files, `${workspace.manifest.name} ${subpath}`).toContain(target.slice(2));
          continue;
        }
        const conditions = JSON.stringify(target);
        expect(conditions, `${workspace.manifest.name} ${subpath} has no types`).toMatch(/"types"/);
        for (const file of conditions.match(/\.\/[^"]+/g) ?? []) expect(files, `${workspace.manifest.name} ${subpath}`).toContain(file.slice(2));
      }
    }
  });

  it('install on this Node without an engine warning (EBADENGINE)', () => {
    // (scripts/node-matrix.mjs checks the same on Node 22 and 24, and that nothing is built there.)
    expect(installOutput).toMatch(/added \d+ packages/);
    expect(installOutput.split('\n').filter((line) => /EBADENGINE/.test(line))).toEqual([]);
  });

  it('install as real folders with every internal dependency met by a tarball', () => {
    for (const { workspace } of packed) {
      const installed = path.join(app, 'node_modules', workspace.manifest.name);
      expect(lstatSync(installed).isSymbolicLink(), `${workspace.manifest.name} is a link into the workspace`).toBe(false);
      const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
      expect(manifest.version).toBe(workspace.manifest.version);
      for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
        if (name.startsWith('@cloudapi/')) expect(range, `${workspace.manifest.name} → ${name}`).toMatch(/^\^\d+\.\d+\.\d+$/);
      }
    }
  });

  it.each(['spec', 'types', 'client', 'mock', 'contract', 'docs', 'server', 'cli', 'msw'])('@cloudapi/%s passes publint with no message', async (short) => {
    const { tarball, workspace } = packed.find(({ workspace }) => workspace.manifest.name === `@cloudapi/${short}`)!;
    const buffer = readFileSync(tarball);
    const arrayBuffer = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
    const { messages, pkg } = await publint({ pack: { tarball: arrayBuffer }, level: 'suggestion', strict: true });
    expect(messages.map((message) => formatMessage(message, pkg)), workspace.dir).toEqual([]);
  });

  // attw's own library in this process, as its command runs it (`attw TARBALL --profile …`): one
  // TypeScript loaded for the eight, where eight commands loaded one each (about 5 s of CPU each).
  // The cli is a command only (no module entry point, no types), which attw has nothing to check in.
  it.each(['spec', 'types', 'client', 'mock', 'contract', 'docs', 'server', 'msw'])('@cloudapi/%s passes arethetypeswrong with no problem', async (short) => {
    const { tarball, workspace } = packed.find(({ workspace }) => workspace.manifest.name === `@cloudapi/${short}`)!;
    // A package that ships only ES modules says so (no "require" condition anywhere); for it the
    // CommonJS and node10 resolutions are out of scope (attw's esm-only profile). Node 20.19+
    // loads it with require() all the same.
    const esmOnly = !JSON.stringify(workspace.manifest.exports).includes('"require"');
    // YAML files are data no TypeScript resolution can load; attw is told to leave them out.
    const yaml = Object.entries(workspace.manifest.exports as Record<string, unknown>)
      .filter(([, target]) => typeof target === 'string' && target.endsWith('.yaml')).map(([subpath]) => subpath);
    const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(tarball))), { excludeEntrypoints: yaml });
    // Without types attw checks nothing (and its command exits 0): every package here ships them.
    if (!analysis.types) throw new Error(`${workspace.dir}: arethetypeswrong found no types in the tarball`);
    const ignored = esmOnly ? ['node10', 'node16-cjs'] : [];
    const found = analysis.problems.filter((problem) => !('resolutionKind' in problem) || !ignored.includes(problem.resolutionKind));
    expect(found, workspace.dir).toEqual([]);
  });
  it('are each accepted by npm publish --dry-run', async () => {
    const results = await published;
    packed.forEach(({ workspace }, index) => {
      const result = results[index]!;
      expect(result.code, describeRun(`npm publish --dry-run ${workspace.dir}`, result)).toBe(0);
      expect(`${result.stdout}${result.stderr}`).toContain(`+ ${workspace.manifest.name}@${workspace.manifest.version}`);
      expect(`${result.stdout}${result.stderr}`).toMatch(/public access \(dry-run\)/);
    });
  }, 120_000);
});

describe('a consumer of the installed packages', () => {
  it('compiles an ES module and a CommonJS module with strict TypeScript', async () => {
    const tsc = await compiled;
    expect(tsc.code, describeRun('tsc', tsc)).toBe(0);
  }, 300_000);

  it('starts the installed mock on an ephemeral port and calls it with the client, from ESM', async () => {
    const result = await ranEsm;
    expect(result.code, describeRun('node out/esm.mjs', result)).toBe(0);
    const lines = result.stdout.trim().split('\n').filter((text) => text.startsWith('{')).map((text) => JSON.parse(text));
    const line = lines.find(({ module }) => module === 'esm');
    expect(line).toMatchObject({ module: 'esm', basePath: '/v4', samples: 'function' });
    expect(line.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(line.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4$/);
    expect(line.baseUrl).not.toMatch(/:4010\//);
    expect(line.operations).toBeGreaterThan(0);
    expect(line.regions).toBeGreaterThan(0);
    expect(typeof line.firstRegion).toBe('string');
    // The installed reference server, from the same program: a create with its token, read back.
    expect(lines.find(({ module }) => module === 'esm-server')).toMatchObject({
      engine: 'sqlite', baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v4$/), volume: 'consumer-data', kit: 'function',
    });
  }, 300_000);

  it('does the same from CommonJS', async () => {
    const result = await ranCjs;
    expect(result.code, describeRun('node out/cjs.cjs', result)).toBe(0);
    const line = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(line).toMatchObject({ module: 'cjs', region: expect.any(String), country: expect.any(String) });
  }, 300_000);

  it('runs the consumer smoke: npx cloudapi-server serves and takes a create with its token, npx cloudapi creates and lists, the mock, the client and the kit', async () => {
    const result = await smoked;
    expect(result.code, describeRun('node smoke.mjs', result)).toBe(0);
    const seen = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(seen).toMatchObject({ server: { regions: 200, create: 200, volume: 'smoke-volume', exit: 0 }, cli: { listed: ['smoke-cli', 'smoke-volume'] }, kit: expect.stringMatching(/^success validated (\d+)\/\1/) });
    expect(seen.mock.regions).toBeGreaterThan(0);
  }, 300_000);

  it('runs cloudapi-contract --help, and refuses an unknown flag with exit 2', async () => {
    const bin = path.join(app, 'node_modules', '.bin', 'cloudapi-contract');
    const help = await run(bin, ['--help'], { cwd: app });
    expect(help.code, describeRun('cloudapi-contract --help', help)).toBe(0);
    expect(help.stdout).toMatch(/Usage: cloudapi-contract/);
    const unknown = await run(bin, ['--no-such-flag'], { cwd: app });
    expect(unknown.code).toBe(2);
  }, 60_000);

  it('runs the installed contract kit against the installed mock and keeps the contract (the smoke\'s run: cloudapi-mock --run cloudapi-contract, with its reports)', async () => {
    const result = await smoked;
    expect(result.code, describeRun('node smoke.mjs', result)).toBe(0);
    const seen = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(seen.kit).toMatch(/^success validated (\d+)\/\1 \(\1 of \d+ operations selected\)$/);
    expect(readFileSync(path.join(app, 'out', 'junit.xml'), 'utf8')).toMatch(/<testsuites/);
    expect(JSON.parse(readFileSync(path.join(app, 'out', 'report.json'), 'utf8'))).toMatchObject({ ok: true, summary: expect.stringContaining(seen.kit) });
  }, 300_000);
});

describe('the workspace manifests', () => {
  it('agree with the root on licence, repository, engines and publishing (scripts/package-metadata.mjs --check)', async () => {
    const check = await run(process.execPath, [path.join(repoRoot, 'scripts', 'package-metadata.mjs'), '--check'], { cwd: repoRoot });
    expect(check.code, describeRun('package-metadata --check', check)).toBe(0);
  });

  it('each carry the root LICENSE unchanged, a README, keywords when publishable', () => {
    const license = readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License/);
    for (const { dir, manifest } of allWorkspaces()) {
      expect(readFileSync(path.join(repoRoot, dir, 'LICENSE'), 'utf8'), `${dir}/LICENSE`).toBe(license);
      expect(readFileSync(path.join(repoRoot, dir, 'README.md'), 'utf8').length, `${dir}/README.md`).toBeGreaterThan(200);
      if (!manifest.private) expect(manifest.keywords?.length, `${dir} keywords`).toBeGreaterThan(2);
    }
  });
});
