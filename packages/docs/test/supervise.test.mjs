// npm start's supervisor of the mock (scripts/start/supervise.mjs) with a stand-in startMock: a
// mock that gives up is started again on its port and the start says so; the handle the designer
// loop holds reaches the new one; past three failures in a minute it stays stopped, said loudly.
import { describe, expect, it } from 'vitest';
import { superviseMock } from '../../../scripts/start/supervise.mjs';

/** A stand-in for @cloudapi/mock's startMock: each mock's `fail()` makes its `failed` resolve. */
function standIn() {
  const started = [];
  const startMock = async (options) => {
    let fail;
    const mock = {
      options, port: options.port === 0 ? 40000 : options.port, baseUrl: `http://127.0.0.1:${options.port || 40000}/v4`,
      failed: new Promise((resolve) => { fail = resolve; }),
      stopped: false,
      stop: async () => { mock.stopped = true; },
      reload: async () => `reloaded ${started.indexOf(mock)}`,
      output: () => '',
    };
    mock.fail = () => fail(new Error('Prism exited with code 1: 6 exits in 60 s'));
    started.push(mock);
    return mock;
  };
  return { started, startMock };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('superviseMock', () => {
  it('starts a mock that gave up again on its port, says so, and keeps the handle on the new one', async () => {
    const { started, startMock } = standIn();
    const lines = [];
    const supervised = await superviseMock(startMock, { port: 0, watch: false }, (line) => lines.push(line));
    started[0].fail();
    await settle();
    expect(started).toHaveLength(2);
    expect(started[0].stopped).toBe(true);
    expect(started[1].options).toEqual({ port: 40000, watch: false });
    expect(lines).toEqual([
      '✖ the mock stopped: Prism exited with code 1: 6 exits in 60 s; restarting it on port 40000.',
      '✔ mock  http://127.0.0.1:40000/v4 is back',
    ]);
    expect(await supervised.handle.reload()).toBe('reloaded 1');
    expect(supervised.failed()).toBe(false);
  });

  it('leaves a mock that keeps failing stopped, says so, and reports the failure', async () => {
    const { started, startMock } = standIn();
    const lines = [];
    const supervised = await superviseMock(startMock, { port: 4011 }, (line) => lines.push(line));
    for (let i = 0; i < 4; i++) {
      started.at(-1).fail();
      await settle();
    }
    expect(started).toHaveLength(4);
    expect(lines.at(-1)).toMatch(/^✖ the mock stopped .* more than 3 times in 60 s: it stays stopped; the docs and the server keep serving\.$/);
    expect(supervised.failed()).toBe(true);
  });
});
