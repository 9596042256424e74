// A local HTTP server on 127.0.0.1 (port 0) that records what it receives and answers with a
// scripted handler; tests stop it in afterEach/afterAll.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadBundle } from '@cloudapi/spec/bundle';

export interface Recorded {
  method: string;
  /** The request target exactly as it arrived (no dot segments resolved, nothing decoded). */
  raw: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
  at: number;
}

export type Handler = (request: Recorded, response: ServerResponse, index: number) => void | Promise<void>;

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<LocalServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: Recorded = { method: req.method ?? '', raw: req.url ?? '', url: new URL(req.url ?? '/', 'http://127.0.0.1'), headers: req.headers, body: Buffer.concat(chunks), at: performance.now() };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res, requests.length - 1)).catch((error: unknown) => {
        res.writeHead(599).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

export { loadBundle };
