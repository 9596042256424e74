// Runs one operation: plans and checks the request, sends it with @cloudapi/client (every page
// with `--all`) and prints the answer. Loaded only when a command runs.
import { createClient, isApiError, type ApiError } from '@cloudapi/client';
import { resolveConnection } from './config.js';
import { debugFetch } from './debug.js';
import { EXIT } from './errors.js';
import type { Io } from './io.js';
import { render } from './output.js';
import { planRequest, type Given } from './request.js';
import type { CommandSpec, CommandTable } from './table.js';
import { checkUploadFile, sendUpload, UploadError } from './upload.js';

export interface RunOptions { json?: boolean; format?: string; all?: boolean; debug?: boolean; profile?: string; uploadFile?: string }

type AnyCall = (path: string, init: object) => Promise<{ data?: unknown; error?: ApiError }>;
/** `client.listAll` for a path known only at run time (the command table's). */
type AnyList = (path: string, init: object) => Promise<unknown[]>;

export async function execute(spec: CommandSpec, given: Given, options: RunOptions, io: Io, table: Pick<CommandTable, 'version' | 'baseUrl' | 'writeOnly'>): Promise<number> {
  const planned = await planRequest(spec, given, io);
  const upload = spec.upload && options.uploadFile !== undefined ? checkUploadFile(options.uploadFile) : undefined;
  const { baseUrl, token } = resolveConnection(io.env, options.profile, table.baseUrl);
  const debug = options.debug ? debugFetch(io.stderr, { token, writeOnly: table.writeOnly }) : undefined;
  const client = createClient({
    baseUrl, token, userAgent: `cloudapi-cli/${table.version}`,
    ...(debug ? { fetch: debug } : {}),
  });
  const init = {
    params: { path: planned.path, query: planned.query },
    ...(planned.body !== undefined ? { body: planned.body } : {}),
    ...(planned.filter ? { filter: planned.filter } : {}),
  };
  try {
    if (spec.list && options.all) {
      const items = await (client.listAll as unknown as AnyList)(spec.path, init);
      io.stdout(render(items, items, spec.columns, options));
      return EXIT.done;
    }
    const call = client[spec.method] as unknown as AnyCall;
    const { data, error } = await call(spec.path, init);
    if (error) throw error;
    if (upload) {
      await sendUpload((data as { upload_to: string }).upload_to, upload, debug ?? fetch);
      io.stderr(`uploaded ${upload.path} (${upload.size} bytes)\n`);
    }
    const page = spec.items ? (data as { data: unknown[]; page?: number; pages?: number }) : undefined;
    // --json prints a page's items (as --all prints every item), and any other answer whole.
    io.stdout(render(data, options.json && !spec.list ? undefined : page?.data, spec.columns, options));
    if (spec.list && page && !options.json && (page.pages ?? 1) > (page.page ?? 1)) io.stderr(`page ${page.page} of ${page.pages}: --page ${(page.page ?? 1) + 1} for the next, --all for every page\n`);
    return EXIT.done;
  } catch (error) {
    if (isApiError(error)) {
      // The API's ErrorResponse, one `field: reason` line per entry.
      io.stderr(error.errors.map((detail) => `${detail.field ? `${detail.field}: ` : ''}${detail.reason}\n`).join(''));
      if (options.debug) io.stderr(`(${error.status} from ${error.operation})\n`);
      return EXIT.refused;
    }
    if (error instanceof UploadError) {
      io.stderr(`the upload of ${options.uploadFile} was refused (${error.status}): ${error.message}\n`);
      return EXIT.refused;
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (error instanceof TypeError && cause) {
      io.stderr(`cannot reach ${baseUrl}: ${cause.code ?? cause.message}\n`);
      return EXIT.refused;
    }
    throw error;
  }
}
