// Every failure answered as the bundle's ErrorResponse: an ApiError as it says, Fastify's own 4xx
// (a body too large is a 413 naming the limit), anything else a 500 that names the request id and
// is logged. A request that cannot be routed or parsed as HTTP gets the same body.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import type { Socket } from 'node:net';
import { ApiError } from '../errors.js';
import type { ErrorDetail } from '../errors.js';
import { afterAnswersInFlight } from './connection.js';
import { BODY_LIMIT } from './content-type-parser.js';
import type { Serializer } from './serialization.js';

export type SendError = (reply: FastifyReply, status: number, errors: ErrorDetail[], headers?: Record<string, string>) => void;

/** Answers `errors` with `status`, written by the ErrorResponse serializer. */
export function errorSender(errorBody: Serializer): SendError {
  return (reply, status, errors, headers = {}) => {
    reply.code(status).headers(headers).type('application/json').send(errorBody({ errors }));
  };
}

/** The Fastify options for requests that never reach a route. */
export function unroutedErrors(errorBody: Serializer, sendError: SendError): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    // Malformed percent-escapes in the path and the like: a 400, never Fastify's own body.
    frameworkErrors: (error, _request, reply) => {
      sendError(reply, 400, [{ reason: `The request cannot be routed: ${error.message}` }]);
    },
    // After the answers to the requests before it on the connection (a create pipelined before
    // garbage still gets its answer).
    clientErrorHandler: (error: Error, socket: Socket) => {
      const code = (error as NodeJS.ErrnoException).code;
      const [status, reason] = code === 'HPE_HEADER_OVERFLOW'
        ? ['431 Request Header Fields Too Large', 'The request headers are larger than this server reads (16 KiB)']
        : ['400 Bad Request', `Malformed HTTP request: ${code ?? error.message}`];
      const body = errorBody({ errors: [{ reason }] });
      afterAnswersInFlight(socket, () => {
        if (!socket.writable) return;
        socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      });
    },
  };
}

export function handleErrors(app: FastifyInstance, sendError: SendError): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return sendError(reply, error.status, error.errors, error.headers);
    const status = (error as FastifyError).statusCode;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 413, [{ reason: `The request body is larger than ${request.routeOptions.bodyLimit ?? BODY_LIMIT} bytes` }]);
    if (status && status >= 400 && status < 500) return sendError(reply, status, [{ reason: error.message }]);
    request.log.error({ err: error, method: request.method, url: request.url }, 'unexpected failure');
    return sendError(reply, 500, [{ reason: `Internal server error (request id ${request.id})` }]);
  });
}
