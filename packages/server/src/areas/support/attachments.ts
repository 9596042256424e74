// Ticket attachments arrive as `multipart/form-data` with the file in the part named `file`.
// busboy parses the body as it streams in; the file's bytes are kept aside for the handler (the
// validated body holds only the file name, so the schema and the store's checks see a string),
// and a file over MAX_ATTACHMENT_BYTES stops the upload with a 413. The body is read only once the
// ticket is known to exist, and every stream busboy hands out has an 'error' listener: a broken
// form (no closing boundary, a truncated part) is a 400 naming the body, never an unhandled error.
import busboy from 'busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AreaDeps } from '../../core/area.js';
import { ApiError, badRequest, notFound } from '../../core/errors.js';
import { keepUpload } from '../../core/uploads.js';

export { ACCEPTED_EXTENSIONS, baseName, hasAcceptedExtension } from './files.js';
export { uploadedFile } from '../../core/uploads.js';

/** The largest attachment kept: 5 MiB (the requirements leave request sizes open). */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
/** Room for the part headers and boundaries around a file of the largest size. */
const MULTIPART_OVERHEAD = 64 * 1024;
const ATTACHMENT_ROUTE = '/support/tickets/:ticketId/attachments';

const tooLarge = () => new ApiError(413, [{ field: 'file', reason: `An attachment may be at most ${MAX_ATTACHMENT_BYTES} bytes` }], { connection: 'close' });

/** Registers the multipart parser; only the attachment route takes multipart bodies. */
export function registerAttachmentParser(app: FastifyInstance, deps: AreaDeps): void {
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    if (!request.routeOptions.url?.endsWith(ATTACHMENT_ROUTE)) {
      done(badRequest('The request body is sent as multipart/form-data, which this operation does not take: send application/json'), undefined);
      return;
    }
    if (Number(request.headers['content-length'] ?? 0) > MAX_ATTACHMENT_BYTES + MULTIPART_OVERHEAD) {
      done(tooLarge(), undefined);
      return;
    }
    // The ticket first: a body for a ticket that does not exist is not worth reading.
    // An id that is no id is left unread for the handler's validation to name.
    const ticketId = Number((request.params as { ticketId?: string }).ticketId);
    if (!(Number.isSafeInteger(ticketId) && ticketId > 0)) {
      done(null, undefined);
      return;
    }
    deps.store.db.selectFrom('support_tickets').select('id').where('id', '=', ticketId).executeTakeFirst().then(
      (row) => (row ? parseForm(request, payload, done) : done(notFound(`Support ticket ${ticketId} does not exist`), undefined)),
      (error: Error) => done(error, undefined),
    );
  });
}

type Done = (error: Error | null, body?: unknown) => void;

function parseForm(request: FastifyRequest, payload: NodeJS.ReadableStream, done: Done): void {
  let parser: busboy.Busboy;
  try {
    // busboy signals the limit on reaching it: one byte more than a file may have.
    parser = busboy({ headers: request.headers, limits: { fileSize: MAX_ATTACHMENT_BYTES + 1, files: 1, fields: 20, parts: 21 } });
  } catch (error) {
    done(badRequest(`The multipart body cannot be read: ${(error as Error).message}`), undefined);
    return;
  }
  const body: Record<string, string> = {};
  // The body is complete once busboy has closed and the file's stream has ended.
  let parsed = false;
  let fileOpen = false;
  let finished = false;
  const finish = (error: Error | null) => {
    if (finished) return;
    finished = true;
    if (error) payload.unpipe(parser);
    done(error, error ? undefined : body);
  };
  const unreadable = (error: Error) => finish(badRequest(`The multipart body cannot be read: ${error.message}`));
  parser.on('file', (name, stream, info) => {
    body[name] = info.filename ?? '';
    // busboy fails a file's stream too when the form breaks off (no closing boundary).
    stream.on('error', unreadable);
    if (name !== 'file') {
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    fileOpen = true;
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => finish(tooLarge()));
    stream.on('end', () => {
      if (!stream.truncated) keepUpload(request, 'file', Buffer.concat(chunks));
      fileOpen = false;
      if (parsed) finish(null);
    });
  });
  parser.on('field', (name, value) => { body[name] = value; });
  parser.on('filesLimit', () => finish(badRequest('Send one file, in the part named file', 'file')));
  parser.on('partsLimit', () => finish(badRequest('The multipart body has too many parts: send one file, in the part named file')));
  parser.on('error', unreadable);
  parser.on('close', () => {
    parsed = true;
    if (!fileOpen) finish(null);
  });
  payload.on('error', unreadable);
  payload.pipe(parser);
}
