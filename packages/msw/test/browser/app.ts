// The page of the Chromium test: the handlers in a real service worker (msw/browser), called by
// @cloudapi/client from the page. What it saw goes to `window.results` for the test to read.
import { HttpResponse } from 'msw';
import { setupWorker } from 'msw/browser';
import { createClient } from '@cloudapi/client';
import { createHandlers, createHttp } from '../../src/index.js';

const baseUrl = 'https://api.cloud.test/v4';
const http = createHttp({ baseUrl });
const worker = setupWorker(
  http.get('/volumes/{volumeId}', ({ params }) => (params.volumeId === 99 ? HttpResponse.json({ errors: [{ reason: 'volume 99 is not here (an override)' }] }, { status: 404 }) : undefined)),
  ...createHandlers({ baseUrl, stateful: true }),
);

async function run() {
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'error', quiet: true });
  const client = createClient({ baseUrl, token: 'browser-token', retry: false });
  const anonymous = createClient({ baseUrl, retry: false });
  const regions = await anonymous.GET('/regions');
  const created = await client.POST('/volumes', { body: { label: 'from-chromium', region: 'us-east', size: 25 } });
  const read = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: created.data!.id } } });
  const listed = await client.GET('/volumes');
  const invalid = await client.POST('/volumes', { body: { label: 'x', region: 'us-east', size: 'big' as never } });
  const unauthorized = await anonymous.GET('/volumes');
  const overridden = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 99 } } });
  return {
    controlled: Boolean(navigator.serviceWorker.controller),
    regions: regions.data?.data.length ?? 0,
    created: created.data,
    read: read.data,
    listed: listed.data?.results,
    invalid: { status: invalid.error?.status, errors: invalid.error?.errors },
    unauthorized: unauthorized.error?.status,
    overridden: { status: overridden.error?.status, reason: overridden.error?.errors[0]?.reason },
  };
}

run().then(
  (results) => { (window as any).results = results; },
  (error) => { (window as any).results = { failed: String(error?.stack ?? error) }; },
);
