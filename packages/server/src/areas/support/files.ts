// What the attachment handler checks of a file's name. No Node built-in here: the browser engine
// runs it too. (The file's bytes: core/uploads.ts.)

/** The requirements' accepted extensions, compared without regard to case. */
export const ACCEPTED_EXTENSIONS = ['.gif', '.jpg', '.jpeg', '.pjpg', '.pjpeg', '.tif', '.tiff', '.png', '.pdf', '.txt'];

/** The file name without any directory part a client put in it. */
export const baseName = (fileName: string) => fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);

export const hasAcceptedExtension = (fileName: string) => ACCEPTED_EXTENSIONS.some((ext) => fileName.toLowerCase().endsWith(ext));
