// A consumer's CommonJS module (the same checks as esm.mts): the client and types through
// require, the ES-only mock through import().
import { createClient } from '@cloudapi/client';
import type { components } from '@cloudapi/types';

type Region = components['schemas']['Region'];

async function main(): Promise<void> {
  const { startMock } = await import('@cloudapi/mock');
  const mock = await startMock({ port: 0, host: '127.0.0.1', watch: false });
  try {
    const client = createClient({ baseUrl: mock.baseUrl });
    const { data, error } = await client.GET('/regions/{regionId}', { params: { path: { regionId: 'us-east' } } });
    if (error !== undefined || data === undefined) throw new Error(`GET /regions/us-east failed: ${JSON.stringify(error)}`);
    const region: Region = data;
    console.log(JSON.stringify({ module: 'cjs', baseUrl: mock.baseUrl, region: region.id, country: region.country }));
  } finally {
    await mock.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
