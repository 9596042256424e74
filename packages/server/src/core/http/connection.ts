// What the server does about a connection rather than an operation: pipelined requests handled
// one at a time in order (RFC 9112 §9.3.2 allows overlap only for safe methods; one at a time is
// simplest and always allowed), a malformed request answered only after the answers before it on
// its connection, and CONNECT refused. (The Host header is checked by trusted-hosts.ts.)
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

interface SocketTurns {
  busy: boolean;
  waiting: (() => void)[];
  /** Called once nothing is in flight on the socket. */
  idle: (() => void)[];
  /** Requests started and not yet answered. */
  open: Set<IncomingMessage>;
}

const turns = new WeakMap<Socket, SocketTurns>();

function turnsOf(socket: Socket): SocketTurns {
  let state = turns.get(socket);
  if (!state) {
    state = { busy: false, waiting: [], idle: [], open: new Set() };
    turns.set(socket, state);
  }
  return state;
}

/**
 * onRequest hook: a request starts once the one before it on its connection is answered (or its
 * answer is abandoned: 'close' fires for both).
 */
export function oneAtATime(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const socket = request.raw.socket;
  if (!socket) return done();
  const state = turnsOf(socket);
  state.open.add(request.raw);
  reply.raw.once('close', () => {
    state.open.delete(request.raw);
    const next = state.waiting.shift();
    if (next) return next();
    state.busy = false;
    for (const call of state.idle.splice(0)) call();
  });
  if (state.busy) state.waiting.push(done);
  else {
    state.busy = true;
    done();
  }
}

/**
 * Runs `then` once the answers in flight on `socket` are written; at once when none are, or when
 * the malformed part is the body of a request in flight (that request can never be answered).
 */
export function afterAnswersInFlight(socket: Socket, then: () => void): void {
  const state = turns.get(socket);
  if (state?.busy && [...state.open].every((request) => request.complete)) state.idle.push(then);
  else then();
}

/**
 * CONNECT (a request for a proxy tunnel) never reaches Fastify: Node hands it to 'connect'
 * listeners, and with none closes the socket without a word. It is answered `errorBody`, 405.
 */
export function refuseConnect(server: Server, errorBody: (reason: string) => string): void {
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    socket.on('error', () => {});
    if (!socket.writable) return void socket.destroy();
    const body = errorBody('CONNECT is not an operation of the API: this server is no proxy');
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}
