// `--upload-file`: after an operation whose answer names an upload URL (`upload_to`), the file is
// sent there with a PUT, as the operation's description says. The file is checked before the
// operation runs, so a wrong path leaves nothing half made.
import { openAsBlob, statSync } from 'node:fs';
import { UsageError } from './errors.js';

export interface UploadFile { path: string; size: number }

/** The file to send, checked: it must exist and be a regular file. */
export function checkUploadFile(path: string): UploadFile {
  let stats;
  try { stats = statSync(path); } catch (error) {
    throw new UsageError([`--upload-file ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]);
  }
  if (!stats.isFile()) throw new UsageError([`--upload-file ${path}: not a regular file`]);
  return { path, size: stats.size };
}

/** A refused upload: the URL's answer, read as the API's ErrorResponse when it is one. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  constructor(readonly status: number, readonly reasons: string[]) {
    super(reasons.join('; '));
  }
}

/** PUTs the file to `url` (streamed from disk, not read into memory). */
export async function sendUpload(url: string, file: UploadFile, fetchImpl: (url: string, init: RequestInit) => Promise<Response> = fetch): Promise<void> {
  const body = await openAsBlob(file.path);
  const answer = await fetchImpl(url, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body });
  if (answer.ok) { await answer.body?.cancel(); return; }
  const text = await answer.text();
  let reasons = [`${answer.status} ${answer.statusText}`.trim()];
  try {
    const parsed = JSON.parse(text) as { errors?: Array<{ reason?: string }> };
    if (Array.isArray(parsed.errors) && parsed.errors.length) reasons = parsed.errors.map((e) => String(e.reason ?? ''));
  } catch { /* not JSON: the status says it */ }
  throw new UploadError(answer.status, reasons);
}
