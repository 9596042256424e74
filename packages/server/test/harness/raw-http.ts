// HTTP/1.1 over a raw `node:net` socket: the request is written byte for byte as given (no client
// library tidies it up), and the answers read back until the server closes, stops answering for
// `idleMs`, or `timeoutMs` passes. Answers are parsed by Content-Length or chunked framing.
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  answers: RawAnswer[];
  /** The server closed the connection (rather than the client giving up). */
  closed: boolean;
  /** Bytes read that did not form a whole answer. */
  rest: string;
}

export interface RawOptions {
  /** Answers expected; reading stops once they are in (default 1). */
  answers?: number;
  timeoutMs?: number;
  /** Writes the chunks apart by this many ms (default: all at once). */
  gapMs?: number;
  /** The answers carry no body whatever their Content-Length says (answers to HEAD). */
  bodiless?: boolean;
}

/** Parses as many whole HTTP answers as `data` holds. */
export function parseAnswers(data: Buffer, bodiless = false): { answers: RawAnswer[]; rest: Buffer } {
  const answers: RawAnswer[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const head = data.subarray(at, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1]);
    if (!status) break;
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let cursor = end + 4;
    let body: Buffer;
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      let complete = false;
      for (;;) {
        const lineEnd = data.indexOf('\r\n', cursor);
        if (lineEnd < 0) break;
        const size = parseInt(data.subarray(cursor, lineEnd).toString('latin1'), 16);
        if (Number.isNaN(size)) break;
        if (size === 0) {
          const trailerEnd = data.indexOf('\r\n\r\n', lineEnd);
          if (trailerEnd < 0) break;
          cursor = trailerEnd + 4;
          complete = true;
          break;
        }
        if (data.length < lineEnd + 2 + size + 2) break;
        parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        cursor = lineEnd + 2 + size + 2;
      }
      if (!complete) break;
      body = Buffer.concat(parts);
    } else {
      const length = bodiless || status === 204 || status === 304 ? 0 : Number(headers['content-length'] ?? 0);
      if (data.length < cursor + length) break;
      body = data.subarray(cursor, cursor + length);
      cursor += length;
    }
    answers.push({ status, headers, body: body.toString('utf8') });
    at = cursor;
  }
  return { answers, rest: data.subarray(at) };
}

/** Sends `chunks` on one new connection to `url`'s host and port; resolves with what came back. */
export function rawExchange(url: string, chunks: (string | Buffer)[], options: RawOptions = {}): Promise<RawExchange> {
  const { port, hostname } = new URL(url);
  const wanted = options.answers ?? 1;
  const timeoutMs = options.timeoutMs ?? 3000;
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let data = Buffer.alloc(0);
    let closed = false;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const { answers, rest } = parseAnswers(data, options.bodiless);
      resolve({ answers, closed, rest: rest.toString('latin1') });
    };
    const timer = setTimeout(settle, timeoutMs);
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (parseAnswers(data, options.bodiless).answers.length >= wanted) settle();
    });
    socket.on('close', () => { closed = true; settle(); });
    socket.on('error', () => { closed = true; settle(); });
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
      }
    });
  });
}
