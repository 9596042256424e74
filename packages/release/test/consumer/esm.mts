// A consumer's ES module, compiled by the release test with strict TypeScript against the
// packages installed from their tarballs: starts the installed mock on an ephemeral port and
// calls it through the installed client.
import { createClient, type Region } from '@cloudapi/client';
import type { components } from '@cloudapi/types';
import { startMock } from '@cloudapi/mock';
import { basePathOf } from '@cloudapi/mock/derive';
import { operations } from '@cloudapi/spec/walk';
import { codeSamples } from '@cloudapi/docs/samples';
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
