// createHandlers(): one MSW handler per operation of the bundle. In the default mode each checks
// the token and the request (request.ts) and answers the spec's examples (examples.ts); in the
// stateful mode every request goes to the reference server's engine (stateful.ts), which routes,
// checks and answers it as the server does, and a last handler takes the other paths under
// `baseUrl` (the server's 404 and 405).
import { http } from 'msw';
import type { HttpHandler } from 'msw';
import { exampleAnswer } from './examples.js';
import { mockOperations } from './operations.js';
import type { MockOperation } from './operations.js';
import { readRequest } from './request.js';
import { createStatefulState } from './stateful.js';
import type { StatefulOptions, StatefulStore } from './stateful.js';

export interface HandlersOptions extends StatefulOptions {
  /** The API's base URL as the code under test calls it, ending in `/v4`: `https://api.cloud.example/v4`, or `/v4` in a browser. */
  baseUrl: string;
  /**
   * Answer as the reference server does, with its state (create, read, list with X-Filter, update,
   * delete, its rules and catalogue) kept in memory. Default false: the spec's examples.
   */
  stateful?: boolean;
  /** Validate path, query and body against the spec (400 naming the field). Default true. The stateful mode always checks requests as the server does. */
  validate?: boolean;
}

/** Handlers plus, in stateful mode, the store behind them (null otherwise). */
export type CloudApiHandlers<S extends StatefulStore | null = StatefulStore | null> = HttpHandler[] & { store: S };

/** The MSW URL of an operation under `baseUrl`. */
export function routeUrl(baseUrl: string, op: MockOperation): string {
  return `${trimmedBase(baseUrl)}${op.route}`;
}

function trimmedBase(baseUrl: string): string {
  if (typeof baseUrl !== 'string' || !baseUrl) throw new TypeError('baseUrl is required, e.g. "https://api.cloud.example/v4"');
  return baseUrl.replace(/\/+$/, '');
}

function statefulHandlers(options: HandlersOptions): CloudApiHandlers<StatefulStore> {
  const { store, resolver } = createStatefulState(options);
  const handlers = mockOperations().map((op) => http[op.method](routeUrl(options.baseUrl, op), resolver));
  handlers.push(http.all(`${trimmedBase(options.baseUrl)}/*`, resolver));
  return Object.assign(handlers, { store });
}

export function createHandlers(options: HandlersOptions & { stateful: true }): CloudApiHandlers<StatefulStore>;
export function createHandlers(options: HandlersOptions & { stateful?: false }): CloudApiHandlers<null>;
export function createHandlers(options: HandlersOptions): CloudApiHandlers;
export function createHandlers(options: HandlersOptions): CloudApiHandlers {
  if (options.stateful) return statefulHandlers(options);
  const handlers = mockOperations().map((op) =>
    http[op.method](routeUrl(options.baseUrl, op), async ({ request, params }) => {
      const read = await readRequest(op, request, params, { validate: options.validate ?? true });
      if (read instanceof Response) return read;
      return exampleAnswer(op, request);
    }),
  );
  return Object.assign(handlers, { store: null });
}
