// Development only: the API answered inside the page by @cloudapi/msw's handlers (stateful: what
// you create is listed), through MSW's service worker. The production build never imports this
// file (main.ts loads it under `import.meta.env.DEV`), so neither it nor msw is in the bundle.
import { createHandlers } from '@cloudapi/msw';
import { setupWorker } from 'msw/browser';

export interface Mocks {
  /** Back to the first state (the store forgets what was created). */
  reset(): void;
}

export async function startMocks(baseUrl: string): Promise<Mocks> {
  const handlers = createHandlers({ baseUrl, stateful: true });
  // vite.config.ts serves the worker script from the msw package at this URL.
  await setupWorker(...handlers).start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  return { reset: () => handlers.store?.reset() };
}
