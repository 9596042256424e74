// Pre-signed URLs: `POST .../object-url` hands out a URL on this server, outside `/v4`, that
// allows one method on one object until it expires, without a token:
//
//   {GET|PUT|POST|DELETE} /object-storage-urls/<cluster>/<bucket>/<name, escaped>?expires=<epoch s>[&content_type=<type>]&user=<token id>&signature=<hex>
//
// The signature is an HMAC-SHA256, with a secret kept in the database, over the method, the
// cluster, the bucket, the object name, the expiry, the content type and the user who made the
// URL; any change to the URL or another method fails it (403). Expiry is checked against the
// server's clock. A URL made with a content type must be used with exactly that `Content-Type`
// (403 otherwise). PUT and POST write the body as the object (creating or replacing it; the
// URL's maker is its owner, as the signer of an S3 pre-signed URL is), GET reads it, DELETE
// removes it.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AreaDeps } from '../../core/area.js';
import type { Clock } from '../../core/clock.js';
import { ApiError, forbidden, notFound } from '../../core/errors.js';
import { isForeignKeyViolation } from '../../core/store/constraints.js';
import { MAX_OBJECT_BYTES, monthOf, OBJECT_URL_PATH, signature, signingSecret } from './signing.js';
import type { Signed } from './signing.js';

export { MAX_OBJECT_BYTES, monthOf, OBJECT_URL_PATH, presignedPath } from './signing.js';
export type { UrlMethod } from './signing.js';

const REFUSED = 'The signature does not match: this URL was changed, or is used with another method than it was made for';

/** Checks signature, expiry and content type; answers what was signed. */
async function verify(request: FastifyRequest<{ Params: Record<string, string> }>, deps: AreaDeps): Promise<Signed> {
  const query = request.query as Record<string, string | string[] | undefined>;
  const one = (key: string) => (typeof query[key] === 'string' ? query[key] as string : undefined);
  const expiresText = one('expires');
  const given = one('signature');
  const user = one('user');
  if (!expiresText || !/^\d{1,12}$/.test(expiresText) || !given || !user) throw forbidden('This is not a pre-signed URL of this server: expires, user and signature are required');
  const signed: Signed = {
    method: request.method,
    cluster: request.params.cluster!,
    bucket: request.params.bucket!,
    name: request.params['*']!,
    expires: Number(expiresText),
    contentType: one('content_type'),
    user,
  };
  const expected = Buffer.from(signature(await signingSecret(deps.store.db), signed), 'hex');
  const actual = Buffer.from(/^[0-9a-f]{64}$/.test(given) ? given : '', 'hex');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw forbidden(REFUSED);
  if (deps.clock.now() >= signed.expires * 1000) throw forbidden(`This URL expired at ${new Date(signed.expires * 1000).toISOString()}`);
  if (signed.contentType !== undefined) {
    const sent = request.headers['content-type'];
    if (sent !== signed.contentType) throw forbidden(`This URL was made for Content-Type ${signed.contentType}; the request sent ${sent === undefined ? 'none' : sent}`, 'Content-Type');
  }
  return signed;
}

const tooLarge = () => new ApiError(413, [{ reason: `An object may be at most ${MAX_OBJECT_BYTES} bytes` }]);

/**
 * The uploaded object. Over the limit it stops reading and fails with a 413, leaving the stream as
 * it is (not destroyed, which would reset the connection before the client reads the answer): the
 * HTTP layer drains what is left (core/http/unread-body.ts).
 */
function readBody(stream: NodeJS.ReadableStream | undefined): Promise<Buffer> {
  if (!stream) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_OBJECT_BYTES) return void chunks.push(chunk);
      stop();
      reject(tooLarge());
    };
    const onEnd = () => { stop(); resolve(Buffer.concat(chunks)); };
    const onError = (error: Error) => { stop(); reject(error); };
    function stop() {
      stream!.off('data', onData);
      stream!.off('end', onEnd);
      stream!.off('error', onError);
    }
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

// A stored object is served as bytes, never as a page of this server's origin (where a script in
// it could call the API with the reader's token): `nosniff` on every download, a sandboxing CSP,
// and any type outside a short list of passive ones (HTML, SVG, XML, scripts...) as an attachment.
const INLINE_TYPES = new Set(['text/plain', 'text/csv', 'application/json', 'application/octet-stream', 'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+(?:\s*;\s*[!#$%&'*+.^_`|~0-9a-z-]+=(?:[!#$%&'*+.^_`|~0-9a-z-]+|"[^"\\\r\n]*"))*$/i;

/** The headers a download of `name`, stored as `contentType`, is served with. */
export function downloadHeaders(name: string, contentType: string): Record<string, string> {
  const type = MEDIA_TYPE.test(contentType) ? contentType : 'application/octet-stream';
  const essence = type.split(';')[0]!.trim().toLowerCase();
  const file = encodeURIComponent(name.split('/').pop() || 'object').replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return {
    'content-type': type,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'; img-src 'self'; media-src 'self'",
    ...(INLINE_TYPES.has(essence) ? {} : { 'content-disposition': `attachment; filename*=UTF-8''${file}` }),
  };
}

export async function objectUrlRoutes(app: FastifyInstance, deps: AreaDeps): Promise<void> {
  await app.register(async (scope) => {
    // Objects are any bytes of any type: the body is read here, as it is.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.route<{ Params: Record<string, string> }>({
      method: ['GET', 'PUT', 'POST', 'DELETE'],
      url: `${OBJECT_URL_PATH}/:cluster/:bucket/*`,
      bodyLimit: MAX_OBJECT_BYTES,
      handler: async (request, reply) => {
        const signed = await verify(request, deps);
        const { db } = deps.store;
        const bucket = await db.selectFrom('buckets').select('id').where('cluster', '=', signed.cluster).where('label', '=', signed.bucket).executeTakeFirst();
        if (!bucket) throw notFound(`Bucket ${signed.bucket} does not exist in cluster ${signed.cluster}`);

        if (request.method === 'GET') {
          const object = await db.selectFrom('bucket_objects').select(['data', 'etag', 'content_type', 'last_modified']).where('bucket_id', '=', bucket.id).where('name', '=', signed.name).executeTakeFirst();
          if (!object) throw notFound(`Object ${signed.name} does not exist in bucket ${signed.bucket}`);
          const data = Buffer.from(object.data);
          // Outbound transfer, counted per month (GET /object-storage/transfer).
          await deps.store.write((trx) => trx.insertInto('object_storage_transfer').values({ month: monthOf(deps.clock.now()), used: data.length })
            .onConflict((oc) => oc.column('month').doUpdateSet((eb) => ({ used: eb('object_storage_transfer.used', '+', data.length) }))).execute());
          return reply.code(200).headers(downloadHeaders(signed.name, object.content_type)).header('etag', `"${object.etag}"`)
            .header('last-modified', new Date(Number(object.last_modified)).toUTCString()).send(data);
        }

        if (request.method === 'DELETE') {
          await deps.store.write((trx) => trx.deleteFrom('bucket_objects').where('bucket_id', '=', bucket.id).where('name', '=', signed.name).execute());
          return reply.code(204).send();
        }

        // A declared length above the limit is refused before a byte is read.
        if (Number(request.headers['content-length'] ?? 0) > MAX_OBJECT_BYTES) throw tooLarge();
        const data = await readBody(request.body as NodeJS.ReadableStream | undefined);
        const etag = createHash('md5').update(data).digest('hex');
        const values = { size: data.length, etag, content_type: signed.contentType ?? 'application/octet-stream', owner: signed.user, last_modified: deps.clock.now(), data };
        try {
          await deps.store.write((trx) => trx.insertInto('bucket_objects').values({ bucket_id: bucket.id, name: signed.name, acl: 'private', ...values })
            .onConflict((oc) => oc.columns(['bucket_id', 'name']).doUpdateSet(values)).execute());
        } catch (error) {
          // The bucket was deleted while the object arrived: nothing is written.
          if (isForeignKeyViolation(error)) throw notFound(`Bucket ${signed.bucket} does not exist in cluster ${signed.cluster}`);
          throw error;
        }
        return reply.code(200).header('etag', `"${etag}"`).send();
      },
    });
  });
}

