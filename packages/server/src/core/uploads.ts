// The files of a multipart request, kept beside the request for its handler (`uploadedFile(ctx.request)`)
// by whatever read the body: the server's busboy parser (areas/support/attachments.ts) or the
// browser engine's reading of the form (core/dispatch/engine.ts). The validated body holds only
// the file's name, so the schema and the checks see a string.

const uploads = new WeakMap<object, Map<string, Uint8Array>>();

/** Keeps the bytes of the file part named `part` of `request`'s body. */
export function keepUpload(request: object, part: string, data: Uint8Array): void {
  let files = uploads.get(request);
  if (!files) uploads.set(request, (files = new Map()));
  files.set(part, data);
}

/** The bytes of the file part named `part` (default `file`) of this request, once its body is read. */
export const uploadedFile = (request: object, part = 'file'): Uint8Array | undefined => uploads.get(request)?.get(part);
