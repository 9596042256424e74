// Helpers of the Object Storage tests: objects written through the pre-signed URLs the server
// issues, and the real `curl` binary (installed with apt-get when missing and this runs as root).
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import type { Api } from '../harness/harness.js';
import { canInstall } from '../harness/postgres.js';

export const CLUSTER = 'us-east-1';

/** A pre-signed URL for `name` in `bucket`, made by the server (a GET URL unless `method` says). */
export async function objectUrl(api: Api, bucket: string, body: Record<string, unknown>, cluster = CLUSTER): Promise<string> {
  const answer = await api.post(`/object-storage/buckets/${cluster}/${bucket}/object-url`, { method: 'GET', ...body });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.url as string;
}

/** Writes an object through a PUT URL the server made. */
export async function putObject(api: Api, bucket: string, name: string, data: string | Buffer = `data of ${name}`, contentType = 'text/plain', cluster = CLUSTER): Promise<void> {
  const url = await objectUrl(api, bucket, { name, method: 'PUT', content_type: contentType }, cluster);
  const response = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: data });
  expect(response.status, await response.text()).toBe(200);
}

export async function createBucket(api: Api, label: string, cluster = CLUSTER) {
  const answer = await api.post('/object-storage/buckets', { label, cluster });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

const CURL_HINT = 'The pre-signed URL test runs the real curl and found none on PATH: '
  + '`sudo apt-get update && sudo apt-get install -y curl` (the test does this itself when it runs as root with apt-get).';

/** The curl binary, installed first when missing and possible; otherwise the error says how. */
export function ensureCurl(): string {
  const found = () => spawnSync('curl', ['--version'], { stdio: 'ignore' }).status === 0;
  if (found()) return 'curl';
  if (canInstall()) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'curl']]) spawnSync('apt-get', args, { env, stdio: 'ignore' });
    if (found()) return 'curl';
  }
  throw new Error(CURL_HINT);
}
