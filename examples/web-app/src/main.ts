// The page: connect to the API with a base URL and a token, list the volumes, create one, and say
// what went wrong when something does (a field the API refused, a token it refused, a request the
// browser blocked). In development (`npm run dev`) the API is @cloudapi/msw inside the page.
import type { CloudApiClient, Region, Volume } from '@cloudapi/client';
import { connect, savedToken, saveToken } from './api.js';
import { createRefusal, failureLines } from './messages.js';
import { el, showLines } from './view.js';

const defaultBaseUrl = import.meta.env.VITE_API_BASE_URL;
// `import.meta.env.DEV` is the constant `false` in a production build: the branch, and with it the
// dynamic import of msw, is dropped from the bundle (test/app.test.ts checks it).
const mocks = import.meta.env.DEV ? await import('./mocks.js').then(({ startMocks }) => startMocks(defaultBaseUrl)) : undefined;

const baseUrl = el('input', { id: 'base-url', value: defaultBaseUrl, size: 40 });
const token = el('input', { id: 'token', type: 'password', value: savedToken(), autocomplete: 'off' });
const status = el('p', { id: 'status' });
const problems = el('ul', { id: 'problems' });
const volumes = el('ul', { id: 'volumes' });
const label = el('input', { id: 'label', placeholder: 'new-volume' });
const region = el('select', { id: 'region' });
const size = el('input', { id: 'size', type: 'number', value: '20' });
let client: CloudApiClient | undefined;

function say(text: string, lines: readonly string[] = []): void {
  status.textContent = text;
  showLines(problems, lines);
}

/** Runs `work` with the connected client, saying what failed when it throws. */
async function withClient(work: (api: CloudApiClient) => Promise<void>): Promise<void> {
  if (!client) return say('Connect first.');
  say('Working…');
  try {
    await work(client);
  } catch (failure) {
    say('The call failed:', failureLines(failure));
  }
}

const volumeLine = (volume: Volume) => `${volume.label} (${volume.region}, ${volume.size} GB, ${volume.status})`;
const regionOption = (each: Region) => el('option', { value: each.id, textContent: each.id });

async function refresh(api: CloudApiClient): Promise<void> {
  const items = await api.listAll('/volumes');
  if (!region.options.length) region.append(...(await api.listAll('/regions')).map(regionOption));
  volumes.replaceChildren(...items.map((volume) => el('li', { textContent: volumeLine(volume) })));
  say(`${items.length} volume${items.length === 1 ? '' : 's'}`);
}

async function createVolume(api: CloudApiClient): Promise<void> {
  const { data, error } = await api.POST('/volumes', { body: { label: label.value, region: region.value, size: size.valueAsNumber } });
  if (error) return say('The volume was not created:', createRefusal(error));
  await refresh(api);
  say(`Created ${data.label}.`);
}

const onSubmit = (action: () => Promise<void>) => (event: SubmitEvent) => {
  event.preventDefault();
  void action();
};

const settings = el('form', {
  id: 'settings',
  onsubmit: onSubmit(() => {
    saveToken(token.value);
    client = connect(baseUrl.value);
    return withClient(refresh);
  }),
}, el('label', {}, 'API ', baseUrl), el('label', {}, ' Token ', token), el('button', { type: 'submit', textContent: 'Connect' }));

const creation = el('form', { id: 'create', onsubmit: onSubmit(() => withClient(createVolume)) },
  el('label', {}, 'Label ', label), el('label', {}, ' Region ', region), el('label', {}, ' Size (GB) ', size),
  el('button', { type: 'submit', textContent: 'Create' }));

const mode = mocks
  ? ['Mock API in this page (@cloudapi/msw): nothing leaves the browser. ', el('button', { id: 'reset', type: 'button', textContent: 'Reset mock data', onclick: () => mocks.reset() })]
  : ['Production build: the API at the address below.'];

document.querySelector('main')?.append(el('h1', { textContent: 'Volumes' }), el('p', { id: 'mode' }, ...mode), settings, status, problems, volumes, creation);
