// The reference server as one part of `npm start`, in a process of its own (forked by
// supervise.mjs): an error nothing caught ends this process only, and `npm start` starts it again
// while the docs and the mock keep serving.
//
// Messages out: {type: 'ready', url, baseUrl, port, token, store, notices} once it listens, or
// {type: 'failed', message} when it could not start. In: SIGTERM stops it (exit 0); the parent
// going away (even by SIGKILL) closes the channel, and it stops too.
import { startServer } from '@cloudapi/server';

const options = JSON.parse(process.argv[2]);
let server = null;
let stopping = false;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  await server?.close().catch(() => {});
  process.exit(code);
}

process.on('uncaughtException', (error) => {
  process.stderr.write(`✖ the reference server failed: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
process.on('unhandledRejection', (error) => {
  process.stderr.write(`✖ the reference server failed (unhandled rejection): ${error?.stack ?? error}\n`);
  process.exit(1);
});
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => {}); // Ctrl-C reaches the whole group: npm start decides, and sends SIGTERM
process.on('disconnect', () => stop(0));

try {
  server = await startServer(options);
} catch (error) {
  process.send({ type: 'failed', message: error.message });
  process.exit(1);
}
process.send({
  type: 'ready', url: server.url, baseUrl: server.baseUrl, port: server.port, token: server.token,
  store: { engine: server.store.engine, location: server.store.location }, notices: server.notices,
});
