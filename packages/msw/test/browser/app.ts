// The page of the Chromium test: the handlers in a real service worker (msw/browser), called by
// @cloudapi/client from the page; the stateful mode runs the reference server's engine (SQLite
// in WebAssembly) in the page and keeps its state in sessionStorage. The test loads the page
// twice: the first load exercises the API, the second (a reload) finds the state kept, then
// resets it. What it saw goes to `window.results` for the test to read.
import { HttpResponse } from 'msw';
import { setupWorker } from 'msw/browser';
import { createClient } from '@cloudapi/client';
import { createHandlers, createHttp } from '../../src/index.js';

const baseUrl = 'https://api.cloud.test/v4';
const http = createHttp({ baseUrl });
const handlers = createHandlers({ baseUrl, stateful: true, transitionMs: 0, persist: { storage: sessionStorage, key: 'cloudapi-test' } });
const worker = setupWorker(
  http.get('/volumes/{volumeId}', ({ params }) => (params.volumeId === 99 ? HttpResponse.json({ errors: [{ reason: 'volume 99 is not here (an override)' }] }, { status: 404 }) : undefined)),
  ...handlers,
);
const client = createClient({ baseUrl, token: 'browser-token', retry: false });
const anonymous = createClient({ baseUrl, retry: false });

async function firstLoad() {
  const regions = await anonymous.GET('/regions');
  const created = await client.POST('/volumes', { body: { label: 'from-chromium', region: 'us-east', size: 25 } });
  const read = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: created.data!.id } } });
  const listed = await client.GET('/volumes');
  const filtered = await client.GET('/volumes', { headers: { 'X-Filter': JSON.stringify({ label: 'nope' }) } });
  const mars = await client.POST('/volumes', { body: { label: 'on-mars', region: 'mars-1', size: 25 } });
  const invalid = await client.POST('/volumes', { body: { label: 'x', region: 'us-east', size: 'big' as never } });
  const unauthorized = await anonymous.GET('/volumes');
  const overridden = await client.GET('/volumes/{volumeId}', { params: { path: { volumeId: 99 } } });
  sessionStorage.setItem('phase', 'reloaded');
  return {
    controlled: Boolean(navigator.serviceWorker.controller),
    regions: regions.data?.results,
    created: created.data,
    read: read.data,
    listed: listed.data?.results,
    filtered: filtered.data,
    mars: mars.error?.errors,
    invalid: { status: invalid.error?.status, errors: invalid.error?.errors },
    unauthorized: unauthorized.error?.status,
    overridden: { status: overridden.error?.status, reason: overridden.error?.errors[0]?.reason },
  };
}

async function afterReload() {
  const kept = await client.GET('/volumes');
  await handlers.store.reset();
  const afterReset = await client.GET('/volumes');
  const again = await client.POST('/volumes', { body: { label: 'after-reset', region: 'us-east', size: 25 } });
  return { kept: kept.data?.data.map((v) => v.label), afterReset: afterReset.data, againId: again.data?.id, stored: sessionStorage.getItem('cloudapi-test') !== null };
}

async function run() {
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'error', quiet: true });
  return sessionStorage.getItem('phase') === 'reloaded' ? { reloaded: await afterReload() } : firstLoad();
}

run().then(
  (results) => { (window as any).results = results; },
  (error) => { (window as any).results = { failed: String(error?.stack ?? error) }; },
);
