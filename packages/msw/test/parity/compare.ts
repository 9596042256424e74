// What "the same answer" means between the reference server and the stateful handlers: the
// status, the body with its timestamps, origins and server-made random values set aside, and the
// headers that matter to a client (the media type, `Allow`, and those the spec declares).

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Response headers compared: what the spec declares on any response, plus the media type and Allow. */
export function comparedHeaders(document: any): string[] {
  const names = new Set(['content-type', 'allow']);
  for (const item of Object.values<any>(document.paths)) {
    for (const operation of Object.values<any>(item)) {
      for (const response of Object.values<any>(operation?.responses ?? {})) {
        const resolved = response.$ref ? response.$ref.split('/').slice(1).reduce((node: any, key: string) => node[key], document) : response;
        for (const name of Object.keys(resolved.headers ?? {})) names.add(name.toLowerCase());
      }
    }
  }
  return [...names].sort();
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/;
/** Fields whose values the server makes at random (keys, secrets): equal in shape, never in value. */
export const RANDOM_FIELDS = new Set(['access_key', 'secret_key', 'ssh_key']);

/** The body with what differs between any two runs (times, the origin, random values) replaced by a marker. */
export function normalized(value: unknown, origins: string[], key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normalized(item, origins));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalized(v, origins, k)]));
  // Epoch milliseconds of this century (a statistics series' points): no id or size comes near.
  if (typeof value === 'number') return Number.isInteger(value) && value > 1e12 && value < 4e12 ? '<time>' : value;
  if (typeof value !== 'string') return value;
  if (RANDOM_FIELDS.has(key)) return '<random>';
  if (TIME.test(value)) return '<time>';
  let text = value;
  for (const origin of origins) text = text.split(origin).join('<origin>');
  // A pre-signed URL's expiry (seconds of the clock) and signature, an upload URL's token.
  return text.replace(/expires=\d+/g, 'expires=<time>').replace(/signature=[0-9a-f]+/g, 'signature=<random>').replace(/(\/uploads\/images\/)[0-9a-f]+/g, '$1<random>');
}

/** Where two answers differ, in words (empty when they do not). */
export function differences(server: Answer, msw: Answer, headers: string[], origins: string[]): string[] {
  const found: string[] = [];
  if (server.status !== msw.status) found.push(`status ${server.status} (server) vs ${msw.status} (msw)`);
  for (const name of headers) {
    if (server.headers[name] !== msw.headers[name]) found.push(`header ${name}: ${server.headers[name] ?? '(none)'} (server) vs ${msw.headers[name] ?? '(none)'} (msw)`);
  }
  const a = JSON.stringify(normalized(server.body, origins));
  const b = JSON.stringify(normalized(msw.body, origins));
  if (a !== b) found.push(`body ${a.slice(0, 400)} (server) vs ${b.slice(0, 400)} (msw)`);
  return found;
}
