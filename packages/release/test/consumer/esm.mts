// A consumer's ES module, compiled by the release test with strict TypeScript against the
// packages installed from their tarballs: starts the installed mock on an ephemeral port and
// calls it through the installed client; starts the installed reference server (SQLite in a
// temporary folder), creates a volume with its token and reads it back; and types a contract-kit
// run, so the kit's declarations (which name the spec's walker types) compile too.
import { createClient, type Region } from '@cloudapi/client';
import type { components } from '@cloudapi/types';
import { startMock } from '@cloudapi/mock';
import { basePathOf } from '@cloudapi/mock/derive';
import { operations } from '@cloudapi/spec/walk';
import { codeSamples } from '@cloudapi/docs/samples';
import { summaryLine, type ContractOptions, type Operation } from '@cloudapi/contract';
import { startServer, type RunningServer } from '@cloudapi/server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const bundle: { info: { version: string } } = JSON.parse(readFileSync(require.resolve('@cloudapi/spec/openapi.json'), 'utf8'));

const mock = await startMock({ port: 0, host: '127.0.0.1', watch: false });
try {
  const client = createClient({ baseUrl: mock.baseUrl });
  const { data, error } = await client.GET('/regions');
  if (error !== undefined || data === undefined) throw new Error(`GET /regions failed: ${JSON.stringify(error)}`);
  const first: Region | undefined = data.data[0];
  const id: components['schemas']['Region']['id'] | undefined = first?.id;
  console.log(JSON.stringify({
    module: 'esm',
    baseUrl: mock.baseUrl,
    basePath: basePathOf(bundle),
    version: bundle.info.version,
    operations: [...operations(bundle)].length,
    samples: typeof codeSamples,
    regions: data.data.length,
    firstRegion: id,
  }));
} finally {
  await mock.stop();
}

const options: ContractOptions = { baseUrl: 'http://127.0.0.1:1/v4' };
const operationIds: Array<Operation['id']> = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'consumer-server-'));
const server: RunningServer = await startServer({ port: 0, dataDir, transitionMs: 0, logLevel: 'warn' });
try {
  const client = createClient({ baseUrl: server.baseUrl, token: server.token ?? '' });
  const created = await client.POST('/volumes', { body: { label: 'consumer-data', region: 'us-east', size: 20 } });
  if (created.error !== undefined || created.data === undefined) throw new Error(`POST /volumes failed: ${JSON.stringify(created.error)}`);
  const read = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: created.data.id } } });
  console.log(JSON.stringify({
    module: 'esm-server',
    engine: server.store.engine,
    baseUrl: server.baseUrl,
    volume: read.data?.label,
    kit: typeof summaryLine,
    kitOptions: Object.keys(options).length + operationIds.length,
  }));
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
