import { expect } from 'chai';
import { decide, type DecisionInputs, type ExecStatus } from '../../../src/runners/exec/decide.js';

const plain: DecisionInputs = { refreshOnly: false, unless: [], onlyif: [] };
const idle: ExecStatus = { createsExists: false, unlessExits: [], onlyifExits: [] };

describe('exec decide #once', () => {
  describe('the decision table, row by row', () => {
    it('a refresh signal executes, via subscribe', () => {
      expect(decide(plain, { ...idle, signal: 'refresh' })).to.deep.equal({
        action: 'execute', viaSubscribe: true, noopMessage: 'Would have executed via subscribe',
      });
    });

    it('a refresh signal executes even though the creates file exists and refresh_only is set', () => {
      const desired = { ...plain, creates: '/x', refreshOnly: true };
      expect(decide(desired, { ...idle, signal: 'refresh', createsExists: true })).to.include({ action: 'execute', viaSubscribe: true });
    });

    it('a refresh signal executes without running unless or onlyif', () => {
      const desired = { ...plain, unless: ['true'], onlyif: ['false'] };
      expect(decide(desired, { ...idle, signal: 'refresh' })).to.include({ action: 'execute' });
    });

    it('the creates file exists: skip', () => {
      expect(decide({ ...plain, creates: '/opt/app/bin/app' }, { ...idle, createsExists: true })).to.deep.equal({
        action: 'skip', message: 'not run: /opt/app/bin/app exists',
      });
    });

    it('the creates file exists: skip, before asking for unless or onlyif', () => {
      const desired = { ...plain, creates: '/x', unless: ['a'], onlyif: ['b'] };
      expect(decide(desired, { ...idle, createsExists: true })).to.include({ action: 'skip' });
    });

    it('refresh_only without a signal: skip', () => {
      expect(decide({ ...plain, refreshOnly: true }, idle)).to.deep.equal({
        action: 'skip', message: 'not run: refresh_only and not notified',
      });
    });

    it('refresh_only without a signal: skip, without asking for the guards', () => {
      expect(decide({ ...plain, refreshOnly: true, unless: ['a'] }, idle)).to.include({ action: 'skip' });
    });

    it('an unless command exits 0: skip', () => {
      expect(decide({ ...plain, unless: ['test -f /x'] }, { ...idle, unlessExits: [0] })).to.deep.equal({
        action: 'skip', message: 'not run: unless command "test -f /x" exited 0',
      });
    });

    it('an onlyif command exits non-zero: skip', () => {
      expect(decide({ ...plain, onlyif: ['test -f /x'] }, { ...idle, onlyifExits: [1] })).to.deep.equal({
        action: 'skip', message: 'not run: onlyif command "test -f /x" exited 1',
      });
    });

    it('otherwise (no creates, not refresh_only): execute', () => {
      expect(decide(plain, idle)).to.deep.equal({ action: 'execute', viaSubscribe: false, noopMessage: 'Would have executed' });
    });

    it('otherwise (creates missing, guards passed): execute', () => {
      const desired = { ...plain, creates: '/x', unless: ['a'], onlyif: ['b'] };
      expect(decide(desired, { ...idle, unlessExits: [1], onlyifExits: [0] })).to.include({ action: 'execute', viaSubscribe: false });
    });
  });

  describe('asking for guards', () => {
    it('asks for each unless command in order, then each onlyif command', () => {
      const desired = { ...plain, unless: ['u0', 'u1'], onlyif: ['o0', 'o1'] };
      expect(decide(desired, idle)).to.deep.equal({ action: 'check', guard: 'unless', index: 0 });
      expect(decide(desired, { ...idle, unlessExits: [2] })).to.deep.equal({ action: 'check', guard: 'unless', index: 1 });
      expect(decide(desired, { ...idle, unlessExits: [2, 1] })).to.deep.equal({ action: 'check', guard: 'onlyif', index: 0 });
      expect(decide(desired, { ...idle, unlessExits: [2, 1], onlyifExits: [0] })).to.deep.equal({ action: 'check', guard: 'onlyif', index: 1 });
    });

    it('stops at the first unless command that exits 0', () => {
      const desired = { ...plain, unless: ['u0', 'u1'], onlyif: ['o0'] };
      expect(decide(desired, { ...idle, unlessExits: [0] })).to.include({ action: 'skip', message: 'not run: unless command "u0" exited 0' });
    });

    it('stops at the first onlyif command that exits non-zero', () => {
      const desired = { ...plain, onlyif: ['o0', 'o1'] };
      expect(decide(desired, { ...idle, onlyifExits: [0, 3] })).to.include({ action: 'skip', message: 'not run: onlyif command "o1" exited 3' });
      expect(decide(desired, { ...idle, onlyifExits: [4] })).to.include({ action: 'skip' });
    });

    it('ignores createsExists when there is no creates property', () => {
      expect(decide(plain, { ...idle, createsExists: true })).to.include({ action: 'execute' });
    });
  });
});
