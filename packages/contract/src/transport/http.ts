// The kit's HTTP transport, on node:http so that it controls what a hostile or broken target can
// do to it: every exchange has one deadline (connect, headers and body), a body is read as a
// stream and cut at a cap rather than buffered whole, header lines are sent exactly as given (two
// Authorization lines are two lines), and every failure (refused, reset, garbage, hang, a body
// too large) comes back as an answer with an `error`, never as an exception.
import http from 'node:http';
import https from 'node:https';

export interface OutgoingRequest {
  method: string;
  url: string;
  /** header lines in order; a name may repeat */
  headers: [string, string][];
  body?: Buffer;
}

export type TransportError = 'refused' | 'reset' | 'timeout' | 'too large' | 'protocol' | 'other';

export interface Answer {
  status?: number;
  headers: Record<string, string | string[] | undefined>;
  mediaType: string;
  text: string;
  json?: unknown;
  parseError?: string;
  ms: number;
  bytes: number;
  error?: string;
  errorKind?: TransportError;
  /** 429s waited out before this answer */
  retries?: number;
}

const JSON_MEDIA = /^application\/(.+\+)?json$/;
/** Whether a media type is JSON (`application/json`, `application/problem+json`). */
export const isJsonMedia = (mediaType: string): boolean => JSON_MEDIA.test(mediaType);

/** `type/subtype` of a Content-Type header, lower-cased, without parameters. */
export function mediaTypeOf(header: unknown): string {
  return typeof header === 'string' ? header.split(';')[0]!.trim().toLowerCase() : '';
}

/** Whether a response media type is one of the declared ones (`*\/*` and `type/*` ranges count). */
export function declaredMediaType(declared: string[], actual: string): boolean {
  return declared.some((d) => {
    const want = d.toLowerCase();
    if (want === actual || want === '*/*') return true;
    return want.endsWith('/*') && actual.startsWith(want.slice(0, -1));
  });
}

export interface TransportOptions {
  timeoutMs: number;
  maxBodyBytes: number;
}

const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 16 }), https: new https.Agent({ keepAlive: true, maxSockets: 16 }) };

function classify(error: NodeJS.ErrnoException): TransportError {
  if (error.code === 'ECONNREFUSED') return 'refused';
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || /socket hang up/.test(error.message)) return 'reset';
  if (error.code?.startsWith('HPE_')) return 'protocol';
  return 'other';
}

/**
 * Sends one request; resolves with the answer or the reason there was none. Never rejects. A
 * request on a kept-alive connection that the server closed at that moment is sent once more on a
 * new one (Node's documented keep-alive race), nothing else is retried here.
 */
export async function send(request: OutgoingRequest, options: TransportOptions): Promise<Answer> {
  const first = await sendOnce(request, options);
  return first.staleSocket ? sendOnce(request, options) : first;
}

function sendOnce(request: OutgoingRequest, { timeoutMs, maxBodyBytes }: TransportOptions): Promise<Answer & { staleSocket?: boolean }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of request.headers) {
      const key = name.toLowerCase();
      const existing = headers[key];
      headers[key] = existing === undefined ? value : [...([] as string[]).concat(existing), value];
    }
    if (request.body) headers['content-length'] = String(request.body.length);
    let url: URL;
    try { url = new URL(request.url); } catch (error) {
      resolve({ headers: {}, mediaType: '', text: '', ms: 0, bytes: 0, error: `not a URL: ${request.url}`, errorKind: 'other' });
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const finish = (answer: Omit<Answer, 'ms'> & { staleSocket?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, ms: performance.now() - started });
    };
    const failed = (errorKind: TransportError, error: string, partial: Partial<Answer> = {}) =>
      finish({ headers: {}, mediaType: '', text: '', bytes: 0, ...partial, error, errorKind });

    const req = client.request(url, { method: request.method, headers, agent: url.protocol === 'https:' ? agents.https : agents.http });
    const timer = setTimeout(() => {
      failed('timeout', `no complete answer within ${timeoutMs} ms`);
      req.destroy();
    }, timeoutMs);
    timer.unref?.();
    let answered = false;
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered && req.reusedSocket && classify(error) === 'reset' && !settled) { settled = true; clearTimeout(timer); resolve({ headers: {}, mediaType: '', text: '', ms: 0, bytes: 0, staleSocket: true }); return; }
      failed(classify(error), error.code?.startsWith('HPE_') ? `not an HTTP answer (${error.code}: ${error.message})` : `${error.code ?? ''} ${error.message}`.trim());
    });
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let bytes = 0;
      const mediaType = mediaTypeOf(res.headers['content-type']);
      const declared = Number(res.headers['content-length']);
      // The failure is settled before the socket is destroyed: destroying it fires 'aborted'.
      if (Number.isFinite(declared) && declared > maxBodyBytes) {
        failed('too large', `the answer declares a ${declared}-byte body, over the ${maxBodyBytes}-byte cap (--max-body-mb)`, { status: res.statusCode, headers: res.headers, mediaType, bytes: 0 });
        res.destroy();
        return;
      }
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBodyBytes) {
          failed('too large', `the answer's body went past the ${maxBodyBytes}-byte cap (--max-body-mb); reading stopped there`, { status: res.statusCode, headers: res.headers, mediaType, bytes });
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', (error: NodeJS.ErrnoException) => failed(classify(error), `the body was cut off: ${error.message}`, { status: res.statusCode, headers: res.headers, mediaType, bytes }));
      res.on('aborted', () => failed('reset', 'the connection closed in the middle of the body', { status: res.statusCode, headers: res.headers, mediaType, bytes }));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        let parseError: string | undefined;
        if (isJsonMedia(mediaType) && text.length) {
          try { json = JSON.parse(text); } catch (error) { parseError = (error as Error).message; }
        }
        finish({ status: res.statusCode, headers: res.headers, mediaType, text, json, parseError, bytes });
      });
    });
    req.end(request.body);
  });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The request as a curl command line, its tokens replaced by shell variables (`$TOKEN`). */
export function toCurl(request: OutgoingRequest, redact: (text: string) => string = (t) => t): string {
  const parts = ['curl', '-X', request.method, shellQuote(request.url)];
  for (const [name, value] of request.headers) {
    if (name === 'accept') continue;
    const shown = redact(value);
    parts.push('-H', shown !== value ? `"${name}: ${shown}"` : shellQuote(`${name}: ${shown}`));
  }
  if (request.body?.length) {
    const text = request.body.toString('utf8');
    parts.push('--data-binary', shellQuote(text.length > 4000 ? `${text.slice(0, 4000)}…` : text));
  }
  return parts.join(' ');
}
