// The `upload_to` URL: `PUT /uploads/images/<token>` with `Content-Type: application/octet-stream`
// and a gzip-compressed raw disk image as the body, within 24 hours of the upload's creation.
// The body is streamed and decompressed to check it and measure the disk; the bytes themselves
// are not kept (no operation of the API reads them back). The image then moves from
// `pending_upload` to `available` after the clock's transition time (processing).
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { AreaDeps } from '../../core/area.js';
import { transition } from '../../core/clock.js';
import { ApiError, badRequest, notFound } from '../../core/errors.js';
import { MAX_UPLOAD_BYTES, notExpired, UPLOAD_PATH } from './store.js';

export { UPLOAD_PATH };

export async function uploadRoutes(app: FastifyInstance, deps: AreaDeps): Promise<void> {
  await app.register(async (scope) => {
    // Only here does the server read raw bytes; the rest of the API takes JSON.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    scope.put<{ Params: { token: string } }>(`${UPLOAD_PATH}/:token`, { bodyLimit: MAX_UPLOAD_BYTES }, async (request, reply) => {
      const { token } = request.params;
      const mediaType = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (mediaType !== 'application/octet-stream') throw new ApiError(415, [{ reason: `Content-Type ${mediaType || '(none)'} is not accepted: send application/octet-stream` }]);
      const now = deps.clock.now();
      const image = await deps.store.db.selectFrom('images').select(['id']).where('upload_token', '=', token)
        .where('status', '=', 'pending_upload').where(notExpired(now)).executeTakeFirst();
      if (!image) throw notFound('This upload URL is unknown, already used or expired');
      const body = request.body as NodeJS.ReadableStream | undefined;
      if (!body) throw badRequest('The upload needs a body: the gzip-compressed disk image');

      let raw = 0;
      const measure = new Writable({ write(chunk: Buffer, _encoding, callback) { raw += chunk.length; callback(); } });
      try {
        // Both sides bounded: a small gzip can expand a thousandfold.
        await pipeline(body, byteLimit(MAX_UPLOAD_BYTES, 'compressed'), createGunzip(), byteLimit(MAX_UPLOAD_BYTES, 'decompressed'), measure);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw badRequest(`The upload is not a gzip-compressed disk image: ${(error as Error).message}`);
      }
      if (raw === 0) throw badRequest('The uploaded disk image is empty');

      const done = await deps.store.write((trx) => trx.updateTable('images')
        .set({ upload_token: null, size: Math.ceil(raw / (1024 * 1024)), ...transition(deps.clock, 'pending_upload', 'available'), updated: deps.clock.now() })
        .where('id', '=', image.id).where('upload_token', '=', token).executeTakeFirst());
      if (Number(done.numUpdatedRows) === 0) throw notFound('This upload URL was used by another upload meanwhile');
      return reply.code(200).send();
    });
  });
}

/** Passes bytes through until more than `max` have passed, then fails with a 413. */
export function byteLimit(max: number, side: 'compressed' | 'decompressed'): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > max) callback(new ApiError(413, [{ reason: `An image upload may be at most ${max} bytes ${side}` }]));
      else callback(null, chunk);
    },
  });
}
