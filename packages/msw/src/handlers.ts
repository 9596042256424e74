// createHandlers(): one MSW handler per operation of the bundle. Each checks the token and the
// request (request.ts), then answers from the in-memory state when it is on and holds the
// resource (store.ts), else from the spec's examples (examples.ts).
import { http } from 'msw';
import type { HttpHandler } from 'msw';
import { exampleAnswer } from './examples.js';
import { mockOperations } from './operations.js';
import type { MockOperation } from './operations.js';
import { readRequest } from './request.js';
import { createStore } from './store.js';
import type { Store } from './store.js';

export interface HandlersOptions {
  /** The API's base URL as the code under test calls it, ending in `/v4`: `https://api.cloud.example/v4`, or `/v4` in a browser. */
  baseUrl: string;
  /** Keep created objects in memory: create, read, list (paginated), update and delete act on them. Default false (examples only). */
  stateful?: boolean;
  /** Validate path, query and body against the spec (400 naming the field). Default true. */
  validate?: boolean;
}

/** Handlers plus, in stateful mode, the store behind them. */
export type CloudApiHandlers = HttpHandler[] & { store: Store | null };

/** The MSW URL of an operation under `baseUrl`. */
export function routeUrl(baseUrl: string, op: MockOperation): string {
  if (typeof baseUrl !== 'string' || !baseUrl) throw new TypeError('baseUrl is required, e.g. "https://api.cloud.example/v4"');
  return `${baseUrl.replace(/\/+$/, '')}${op.route}`;
}

export function createHandlers(options: HandlersOptions): CloudApiHandlers {
  const operations = mockOperations();
  const store = options.stateful ? createStore(operations) : null;
  const handlers = operations.map((op) =>
    http[op.method](routeUrl(options.baseUrl, op), async ({ request, params }) => {
      const read = await readRequest(op, request, params, { validate: options.validate ?? true });
      if (read instanceof Response) return read;
      return store?.answer(op, read) ?? exampleAnswer(op, request);
    }),
  );
  return Object.assign(handlers, { store });
}
