import { expect } from 'chai';
import { forEachLimited } from '../../../src/facts/remote/limit.js';

/** Runs items that each wait until released, and records the most in flight at once. */
async function measure(items: number, limit: number): Promise<{ max: number; order: number[] }> {
  let inFlight = 0;
  let max = 0;
  const order: number[] = [];
  const waiting: (() => void)[] = [];
  const done = forEachLimited([...Array(items).keys()], limit, async (item) => {
    inFlight++;
    max = Math.max(max, inFlight);
    order.push(item);
    await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight--;
  });
  // Release one waiting item at a time, letting the pool refill between releases.
  while (order.length < items || waiting.length > 0) {
    await new Promise((r) => setImmediate(r));
    waiting.shift()?.();
  }
  await done;
  return { max, order };
}

describe('forEachLimited #once', () => {
  it('runs at most the limit at once, reaches it, and starts items in order', async () => {
    expect(await measure(5, 2)).to.deep.equal({ max: 2, order: [0, 1, 2, 3, 4] });
    expect(await measure(3, 3)).to.deep.equal({ max: 3, order: [0, 1, 2] });
    expect((await measure(3, 8)).max).to.equal(3);
    expect((await measure(4, 1)).max).to.equal(1);
  });

  it('does nothing for no items', async () => {
    let called = false;
    await forEachLimited([], 4, async () => {
      called = true;
    });
    expect(called).to.equal(false);
  });
});
