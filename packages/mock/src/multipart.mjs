// Multipart bodies as the front layer hands them to Prism. Prism's multipart parser expects each
// file part to carry its own Content-Type and every part a plain Content-Disposition, and throws
// (a 500) on anything else, though RFC 7578 lets a part leave its Content-Type out (text/plain).
// So the body is read with busboy, refused with a 400 naming the body when it is no readable
// form, and otherwise written again in the one shape Prism reads: every part with its name, a
// file part with its file name and an explicit Content-Type, a fresh boundary.
import { randomBytes } from 'node:crypto';
import busboy from 'busboy';

const MAX_PARTS = 100;

/** Characters Prism's parser splits Content-Disposition on; replaced in names it is given. */
const unsafeInDisposition = (text) => String(text).replace(/[";=\\\r\n]/g, '_');

/**
 * @param {Buffer} raw the body as sent
 * @param {string} contentType the request's Content-Type (with its boundary)
 * @returns {Promise<{ body: Buffer, contentType: string } | { problem: string }>}
 */
export function canonicalMultipart(raw, contentType) {
  return new Promise((resolve) => {
    let parser;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, limits: { parts: MAX_PARTS, fieldSize: raw.length + 1 } });
    } catch (error) {
      resolve({ problem: `The multipart body cannot be read: ${error.message} (send multipart/form-data; boundary=...)` });
      return;
    }
    const parts = [];
    let settled = false;
    const settle = (result) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const unreadable = (error) => settle({ problem: `The multipart body cannot be read: ${error.message}` });
    let open = 0;
    let closed = false;
    const finishIfDone = () => {
      if (closed && open === 0) settle(write(parts));
    };
    parser.on('file', (name, stream, info) => {
      const part = { name, filename: info.filename ?? '', type: info.mimeType || 'text/plain', chunks: [] };
      parts.push(part);
      open += 1;
      stream.on('error', unreadable);
      stream.on('data', (chunk) => part.chunks.push(chunk));
      stream.on('end', () => { open -= 1; finishIfDone(); });
    });
    parser.on('field', (name, value) => parts.push({ name, chunks: [Buffer.from(value)] }));
    parser.on('partsLimit', () => settle({ problem: `The multipart body has more than ${MAX_PARTS} parts` }));
    parser.on('error', unreadable);
    parser.on('close', () => { closed = true; finishIfDone(); });
    parser.end(raw);
  });
}

/** The parts as one multipart/form-data body that Prism's parser reads. */
function write(parts) {
  const boundary = `cloudapi-mock-${randomBytes(12).toString('hex')}`;
  const pieces = [];
  for (const part of parts) {
    const disposition = `form-data; name="${unsafeInDisposition(part.name)}"${part.filename !== undefined ? `; filename="${unsafeInDisposition(part.filename)}"` : ''}`;
    const headers = [`Content-Disposition: ${disposition}`, ...(part.filename !== undefined ? [`Content-Type: ${String(part.type).replace(/[\r\n:]/g, '')}`] : [])];
    pieces.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`), ...part.chunks, Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}
