// What the attachment handler checks of a file, and the file's bytes kept beside its request
// by whatever read the body (attachments.ts, busboy, on the server). No Node built-in here.

/** The requirements' accepted extensions, compared without regard to case. */
export const ACCEPTED_EXTENSIONS = ['.gif', '.jpg', '.jpeg', '.pjpg', '.pjpeg', '.tif', '.tiff', '.png', '.pdf', '.txt'];

const uploads = new WeakMap<object, Uint8Array>();

/** Keeps the bytes of the `file` part of `request`'s body for its handler. */
export const keepUpload = (request: object, data: Uint8Array): void => {
  uploads.set(request, data);
};

/** The bytes of the `file` part of this request, once its body is parsed. */
export const uploadedFile = (request: object): Uint8Array | undefined => uploads.get(request);

/** The file name without any directory part a client put in it. */
export const baseName = (fileName: string) => fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);

export const hasAcceptedExtension = (fileName: string) => ACCEPTED_EXTENSIONS.some((ext) => fileName.toLowerCase().endsWith(ext));
