// The NATS client on every Node govern runs on: its ids (inboxes, run requests) from a CSPRNG. No
// #once: the second pass runs it on Debian 12's Node 18, which has no global `crypto`.
import { expect } from 'chai';
import { natsTransport } from '../../src/fleet/nats.js';

describe('the NATS client', () => {
  it("takes its ids' random prefix from Web Crypto's getRandomValues, on Node 18 too", () => {
    const { Nuid } = natsTransport();
    const web = (globalThis as { crypto?: { getRandomValues?: (a: Uint8Array) => Uint8Array } }).crypto;
    expect(web?.getRandomValues, process.version).to.be.a('function');
    // Counted, not replaced: the values are still the real ones.
    const real = web!.getRandomValues!;
    let calls = 0;
    web!.getRandomValues = (a: Uint8Array) => {
      calls += 1;
      return real.call(web, a);
    };
    try {
      expect(new Nuid().next()).to.match(/^[0-9A-Za-z]{22}$/);
    } finally {
      web!.getRandomValues = real;
    }
    expect(calls).to.equal(1);
  });
});
