// What happens to a request body the server answers without reading it all: a 413 over the body
// limit, a 401 before an upload, a 429. Left to Node, either the whole body is read before the
// connection serves again, however large its Content-Length says it is, or (when Fastify marks the
// answer `Connection: close`, as it does for a body over the limit) the socket is closed as soon
// as the answer is written: with the client's bytes still unread, the kernel then resets the
// connection, and a client still sending loses the answer it was sent (issue 39).
//
// Here: the answer goes out at once, then the body is read and dropped up to a bound, so the client
// can finish sending and read it; within the bound the connection serves its next request; past
// the bound (bytes or time) it is half-closed (FIN after the answer) and closed a moment later.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface DrainLimits {
  /** Bytes of an unread body read and dropped before the connection is closed. */
  bytes: number;
  /** How long the rest of a body may take to arrive before the connection is closed. */
  ms: number;
  /** How long a half-closed connection stays open for the client to read the answer and close. */
  graceMs: number;
}

export const DRAIN_LIMITS: DrainLimits = { bytes: 16 * 1024 * 1024, ms: 10_000, graceMs: 2_000 };

const closing = new WeakSet<Socket>();

/** Half-closes `socket` after what is written to it, and destroys it `graceMs` later. */
function closeGracefully(socket: Socket, graceMs: number): void {
  if (socket.destroyed || closing.has(socket)) return;
  closing.add(socket);
  socket.end();
  setTimeout(() => socket.destroy(), graceMs).unref();
}

/** Reads and drops what is left of `request`'s body, within `limits`. */
export function drainUnreadBody(request: IncomingMessage, limits: DrainLimits = DRAIN_LIMITS): void {
  if (request.complete || request.destroyed) return;
  const socket = request.socket;
  let drained = 0;
  const timer = setTimeout(() => closeGracefully(socket, limits.graceMs), limits.ms);
  timer.unref();
  request.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > limits.bytes) closeGracefully(socket, limits.graceMs);
  });
  request.once('end', () => clearTimeout(timer));
  request.once('close', () => clearTimeout(timer));
  request.resume();
}

/**
 * onSend hook on every answer: when the request's body is not all read, the connection is not
 * closed on the answer's heels (the `Connection: close` Fastify adds is taken back) and the body
 * is drained within DRAIN_LIMITS.
 */
export function drainUnreadBodies(app: FastifyInstance, limits: DrainLimits = DRAIN_LIMITS): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete) {
      if (reply.getHeader('connection') === 'close') reply.removeHeader('connection');
      drainUnreadBody(request.raw, limits);
    }
    done(null, payload);
  });
}
