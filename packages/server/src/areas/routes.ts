// The areas' routes outside the bundle's operations, which only the HTTP server has (they read
// streams and multipart bodies with Node's libraries): the image upload URL, pre-signed object
// URLs and the ticket attachment parser. Kept apart from the areas' definitions so that the
// browser engine (src/engine.ts), which runs the same areas, imports none of them.
import type { AreaDeps } from '../core/area.js';
import type { FastifyInstance } from 'fastify';
import { uploadRoutes } from './images/upload.js';
import { objectUrlRoutes } from './object-storage/presigned.js';
import { registerAttachmentParser } from './support/attachments.js';

export type AreaRoutes = (app: FastifyInstance, deps: AreaDeps) => void | Promise<void>;

/** By area name: the routes it adds to the HTTP server. */
export const areaRoutes: Record<string, AreaRoutes> = {
  images: uploadRoutes,
  'object-storage': objectUrlRoutes,
  support: registerAttachmentParser,
};
