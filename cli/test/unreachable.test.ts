import { fetch, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { unreachableReason } from '../unreachable.js';
import { closedPort } from '../../test/ports.js';


async function failureOf(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
}

describe('unreachableReason', () => {
  it('names the refused connection of an undici request', async () => {
    const port = await closedPort();
    const error = await failureOf(() => request(`http://127.0.0.1:${port}/`));
    expect(unreachableReason(error)).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('finds the refused connection under fetch\'s "fetch failed"', async () => {
    const port = await closedPort();
    const error = await failureOf(() => fetch(`http://127.0.0.1:${port}/`));
    expect((error as Error).message).toBe('fetch failed');
    expect(unreachableReason(error)).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('leaves other errors alone', () => {
    expect(unreachableReason(new Error('boom'))).toBeUndefined();
    expect(unreachableReason(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBeUndefined();
    expect(unreachableReason('ECONNREFUSED')).toBeUndefined();
  });
});
