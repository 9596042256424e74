// Supervision: Prism killed with SIGKILL is restarted and the mock answers again, said on the log;
// when Prism cannot be brought back, the mock gives up with the cause and closes its port, and the
// bin exits 1 naming it. A crash is never a clean exit.
import { afterEach, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mockDocumentPath, startMock } from '../src/index.mjs';
import { childrenOf, runBin } from './support/processes.mjs';

const cleanups = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()(); });

function documentCopy() {
  const dir = mkdtempSync(path.join(tmpdir(), 'cloudapi-mock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const document = path.join(dir, 'openapi.mock.json');
  copyFileSync(mockDocumentPath, document);
  return document;
}

describe('supervision of Prism', () => {
  it('restarts Prism killed with SIGKILL, the next request waits for it; past the restarts allowed it gives up and closes its port', async () => {
    const logged = [];
    const mock = await startMock({ port: 0, watch: false, maxRestarts: 1, log: (line) => logged.push(line) });
    cleanups.push(() => mock.stop());
    const first = mock.prismPid;
    process.kill(first, 'SIGKILL');
    const response = await fetch(`${mock.baseUrl}/regions`);
    expect(response.status).toBe(200);
    expect((await response.json()).data.length).toBeGreaterThan(0);
    expect(mock.prismPid).not.toBe(first);
    expect(logged.join('\n')).toMatch(new RegExp(`Prism \\(pid ${first}\\) was killed by SIGKILL; restarting it`));
    expect(logged.join('\n')).toMatch(/Prism is back \(pid \d+\) after \d+\.\d s/);

    process.kill(mock.prismPid, 'SIGKILL');
    expect((await mock.failed).message).toMatch(/Prism was killed by SIGKILL: 2 exits in 60 s, more than the 1 restarts allowed/);
    // Nothing answers after a failure the mock cannot repair: a client sees it down, not a half-mock.
    await expect(fetch(`${mock.baseUrl}/regions`)).rejects.toThrow(/fetch failed/);
  }, 90_000);

  it('gives up with the cause when Prism cannot be restarted', async () => {
    const document = documentCopy();
    const mock = await startMock({ port: 0, watch: false, document, log: () => {} });
    cleanups.push(() => mock.stop());
    rmSync(document); // the restart will not find it
    process.kill(mock.prismPid, 'SIGKILL');
    const failure = await mock.failed;
    expect(failure.message).toMatch(/Prism was killed by SIGKILL and could not be restarted: Prism exited before listening/);
    expect(failure.message).toMatch(/openapi\.mock\.json/); // Prism's own words about the missing file
  }, 90_000);

  it('refuses to start when Prism does not listen in time', async () => {
    await expect(startMock({ port: 0, watch: false, timeoutMs: 1 })).rejects.toThrow(/Prism did not start listening within 1 ms/);
  });
});

describe('the bin under supervision', () => {
  it('hands over to its standby at once when its Prism is killed, and exits 1 naming the cause when Prism keeps dying', async () => {
    const bin = runBin(['--no-watch']);
    cleanups.push(() => { bin.child.kill('SIGKILL'); });
    const [, baseUrl, pid] = await bin.waitFor(/(http:\/\/127\.0\.0\.1:\d+\/v4) \(Prism: pid (\d+), with a standby\)/);
    await bin.waitFor(/a standby Prism \(pid \d+\) is ready to take over/);
    process.kill(Number(pid), 'SIGKILL');
    const again = await fetch(`${baseUrl}/regions`);
    expect(again.status).toBe(200);
    await bin.waitFor(/Prism is back \(pid \d+\) after \d+\.\d s: the standby took over/);

    // Now kill every Prism it starts, as fast as it starts them, until it gives up.
    const killer = setInterval(() => { for (const pid of childrenOf(bin.child.pid)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } } }, 100);
    cleanups.push(() => clearInterval(killer));
    const result = await bin.exited;
    expect(result.code).toBe(1);
    expect(bin.stderr()).toMatch(/✖ the mock stopped: Prism was killed by SIGKILL( and could not be restarted|: \d+ exits in 60 s, more than the 5 restarts allowed)/);
  }, 120_000);
});
