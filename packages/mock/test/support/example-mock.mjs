// Vitest globalSetup: one mock serving the examples (startMock's defaults) for the whole run, for
// the test files that only send it requests and read its answers (filter, multipart,
// vendor-client): a Prism start is about a second and a half of CPU, once instead of once per
// file. A file that reads the mock's log, kills its Prism or needs other options starts its own.
// Its address reaches the files through `inject('exampleMock')`.
import { startMock } from '../../src/index.mjs';

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  const mock = await startMock({ port: 0 });
  project.provide('exampleMock', { baseUrl: mock.baseUrl, url: mock.url, port: mock.port });
  return () => mock.stop();
}
