// Timestamps are written as the API writes them: ISO 8601, UTC, seconds, no zone designator.
import { describe, expect, it } from 'vitest';
import { settle, timestamp } from '../../src/core/clock.js';

describe('clock', () => {
  it('writes timestamps exactly as toISOString does, to the second, for any moment', () => {
    const samples = [0, 951782400000, 951868799999, 1709164800000, 4102444799000, 253402300799000, -1, Date.now()];
    for (let i = 0; i < 2000; i++) samples.push(Math.floor(Math.random() * 253402300799000));
    for (const ms of samples) expect(timestamp(ms), String(ms)).toBe(new Date(ms).toISOString().slice(0, 19));
  });

  it('settles a state once its transition time has come, not before', () => {
    const row = { status: 'creating', next_status: 'active', transition_at: 1000 };
    expect(settle(row, 999)).toBe('creating');
    expect(settle(row, 1000)).toBe('active');
    expect(settle({ status: 'active', next_status: null, transition_at: null }, 5000)).toBe('active');
  });
});
