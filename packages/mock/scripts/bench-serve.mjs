// The mock as `npm run mock` runs it, in a process of its own, for scripts/bench.mjs: it reports
// its addresses over IPC (with Prism's own server beside it as the anchor), and on request
// reloads its document or has its worker killed, answering how long until it served again
// (BENCH_STANDBY=1: with a standby worker). It stops when the benchmark disconnects.
import { startMock } from '../src/index.mjs';

const mock = await startMock({ port: 0, watch: false, anchor: true, standby: process.env.BENCH_STANDBY === '1', log: () => {} });
process.send({ url: mock.url, baseUrl: mock.baseUrl, prismUrl: mock.prismUrl, workerPid: mock.prismPid });

async function answersAgain() {
  for (;;) {
    try {
      if ((await fetch(`${mock.baseUrl}/regions`)).status === 200) return;
    } catch { /* not yet */ }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

process.on('message', async ({ type }) => {
  const began = performance.now();
  if (type === 'reload') await mock.reload();
  if (type === 'kill') {
    // With a standby, kill only once it is ready, or this measures a restart instead.
    while (process.env.BENCH_STANDBY === '1' && !mock.standbyPid) await new Promise((resolve) => setTimeout(resolve, 50));
    const killedAt = performance.now();
    process.kill(mock.prismPid, 'SIGKILL');
    await answersAgain();
    process.send({ ms: performance.now() - killedAt });
    return;
  }
  process.send({ ms: performance.now() - began });
});
process.on('disconnect', async () => {
  await mock.stop();
  process.exit(0);
});
