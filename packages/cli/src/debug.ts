// `--debug`: each request and answer on standard error, for the fetch the client sends with. What
// it prints is redacted: the token (the Authorization header's credentials, and the token itself
// wherever else it shows, such as an answer that echoes it) and the value of every field the
// bundle marks write-only (root_pass, ssl_key…: the command table lists them, from the spec's
// `writeOnly` marks) in a JSON body, sent or received.
import type { Fetch } from '@cloudapi/client';

export const REDACTED = '****';

export interface DebugOptions {
  /** The token the run sends, hidden wherever it appears. */
  token?: string;
  /** Names of the write-only fields, whose values are hidden at any depth of a JSON body. */
  writeOnly: readonly string[];
}

/** A JSON value with the value of every field named in `names` replaced, at any depth. */
function withoutSecrets(value: unknown, names: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, names));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, names.has(key) ? REDACTED : withoutSecrets(item, names)]));
}

// Headers that carry credentials: their value is hidden (an auth scheme's name kept: `Bearer ****`).
const AUTH_HEADERS = new Set(['authorization', 'proxy-authorization']);
const COOKIE_HEADERS = new Set(['cookie', 'set-cookie']);

/** The redaction of everything --debug prints. */
export function debugRedactor({ token, writeOnly }: DebugOptions) {
  const names = new Set(writeOnly);
  const hideToken = (text: string) => (token ? text.split(token).join(REDACTED) : text);
  return {
    header(name: string, value: string): string {
      const lower = name.toLowerCase();
      if (COOKIE_HEADERS.has(lower)) return REDACTED;
      if (!AUTH_HEADERS.has(lower)) return hideToken(value);
      const scheme = /^[A-Za-z][\w.+-]*(?=\s)/.exec(value);
      return scheme ? `${scheme[0]} ${REDACTED}` : REDACTED;
    },
    /** A body as text: JSON with its write-only fields hidden (else as it came), the token hidden either way. */
    body(text: string): string {
      let parsed: unknown;
      try { parsed = JSON.parse(text); } catch { return hideToken(text); }
      const redacted = JSON.stringify(withoutSecrets(parsed, names));
      // Reprinted only when something was hidden: a number JSON.parse rounds is shown as it was sent.
      return hideToken(redacted === JSON.stringify(parsed) ? text : redacted);
    },
    text: hideToken,
  };
}

export function debugFetch(write: (text: string) => void, options: DebugOptions): Fetch {
  const redact = debugRedactor(options);
  return async (input, init) => {
    const request = typeof input === 'string' ? undefined : input;
    const method = init?.method ?? request?.method ?? 'GET';
    const url = typeof input === 'string' ? input : input.url;
    const headers = new Headers(init?.headers ?? request?.headers);
    const lines = [`> ${method} ${redact.text(url)}`, ...[...headers].map(([name, value]) => `> ${name}: ${redact.header(name, value)}`)];
    if (typeof init?.body === 'string') lines.push(`> ${redact.body(init.body)}`);
    else if (init?.body) lines.push('> (a body of bytes or form parts)');
    write(`${lines.join('\n')}\n`);
    const started = performance.now();
    const response = await fetch(input, init);
    const text = await response.clone().text();
    const answerHeaders = [...response.headers].map(([n, v]) => `< ${n}: ${redact.header(n, v)}`).join('\n');
    write(`< ${response.status} ${response.statusText} (${Math.round(performance.now() - started)} ms)\n${answerHeaders}\n${text ? `< ${redact.body(text)}\n` : ''}`);
    return response;
  };
}
