import { expect } from 'chai';
import { description } from '../../../src/runners/service/description.js';
import {
  appliedMessage,
  decide,
  decideEnabled,
  decideRunning,
  decideSignal,
  desiredExpectation,
  describeStatus,
  noopMessage,
  unmetDimensions,
  type ServiceStatus,
} from '../../../src/runners/service/decide.js';

const running = { running: true, enabled: false };
const stopped = { running: false, enabled: false };
const on = (s: ServiceStatus): ServiceStatus => ({ ...s, enabled: true });

describe('service decide #once', () => {
  describe('the seed idempotency table, one row each', () => {
    it('ensure: running, running -> none', () => expect(decideRunning('running', running)).to.equal(undefined));
    it('ensure: running, stopped -> start', () => expect(decideRunning('running', stopped)).to.equal('start'));
    it('ensure: stopped, stopped -> none', () => expect(decideRunning('stopped', stopped)).to.equal(undefined));
    it('ensure: stopped, running -> stop', () => expect(decideRunning('stopped', running)).to.equal('stop'));
    it('enable: true, enabled -> none', () => expect(decideEnabled(true, on(stopped))).to.equal(undefined));
    it('enable: true, disabled -> enable', () => expect(decideEnabled(true, stopped)).to.equal('enable'));
    it('enable: false, enabled -> disable', () => expect(decideEnabled(false, on(stopped))).to.equal('disable'));
    it('enable: false, disabled -> none', () => expect(decideEnabled(false, stopped)).to.equal(undefined));
    it('enable: nil, any -> none', () => {
      for (const status of [running, stopped, on(running), on(stopped)]) expect(decideEnabled(undefined, status)).to.equal(undefined);
    });
  });

  describe('apply mode: phase 1 (running) then phase 2 (enabled)', () => {
    it('starts then enables', () => {
      expect(decide({ ensure: 'running', enable: true }, stopped).actions).to.deep.equal(['start', 'enable']);
    });
    it('stops then disables', () => {
      expect(decide({ ensure: 'stopped', enable: false }, on(running)).actions).to.deep.equal(['stop', 'disable']);
    });
    it('keeps the dimensions independent: running but disabled, stopped but enabled', () => {
      expect(decide({ ensure: 'running', enable: false }, on(running)).actions).to.deep.equal(['disable']);
      expect(decide({ ensure: 'stopped', enable: true }, running).actions).to.deep.equal(['stop', 'enable']);
    });
    it('leaves the boot configuration alone when enable is unset', () => {
      expect(decide({ ensure: 'running' }, on(stopped)).actions).to.deep.equal(['start']);
      expect(decide({ ensure: 'stopped' }, stopped).actions).to.deep.equal([]);
    });
    it('says the state when nothing is to be done', () => {
      expect(decide({ ensure: 'running' }, running).unchanged).to.equal('running');
      expect(decide({ ensure: 'stopped', enable: true }, on(stopped)).unchanged).to.equal('stopped, enabled');
    });
    it('expects the desired state: ensure always, enable only when set', () => {
      expect(decide({ ensure: 'running' }, stopped).expect).to.deep.equal({ running: true });
      expect(decide({ ensure: 'stopped', enable: false }, running).expect).to.deep.equal({ running: false, enabled: false });
    });
  });

  describe('notification mode: the seed subscribe special cases', () => {
    for (const signal of ['refresh', 'restart'] as const) {
      it(`${signal}: ensure stopped ignores it, running or not`, () => {
        for (const status of [running, stopped]) {
          const d = decideSignal(signal, { ensure: 'stopped' }, status);
          expect(d.actions).to.deep.equal([]);
          expect(d.unchanged).to.equal(`${signal} ignored: ensure is stopped`);
        }
      });
      it(`${signal}: not running with ensure running -> start, not restart`, () => {
        expect(decideSignal(signal, { ensure: 'running' }, stopped).actions).to.deep.equal(['start']);
      });
      it(`${signal}: running with ensure running -> restart`, () => {
        expect(decideSignal(signal, { ensure: 'running' }, running).actions).to.deep.equal(['restart']);
      });
    }
    it('a running service that this run already (re)started is not restarted again', () => {
      for (const signal of ['refresh', 'restart', 'reload'] as const) {
        const d = decideSignal(signal, { ensure: 'running' }, running, true);
        expect(d.actions, signal).to.deep.equal([]);
        expect(d.unchanged).to.equal(`${signal} not needed: started in this run`);
        expect(decideSignal(signal, { ensure: 'running' }, stopped, true).actions, signal).to.deep.equal(['start']);
      }
    });
    it('never touches the enabled state', () => {
      expect(decideSignal('refresh', { ensure: 'running', enable: true }, running).actions).to.deep.equal(['restart']);
      expect(decideSignal('refresh', { ensure: 'running', enable: true }, running).expect).to.deep.equal({ running: true });
    });
    it('reload: reloads a running service, starts a stopped one, ignored with ensure stopped', () => {
      expect(decideSignal('reload', { ensure: 'running' }, running).actions).to.deep.equal(['reload']);
      expect(decideSignal('reload', { ensure: 'running' }, stopped).actions).to.deep.equal(['start']);
      expect(decideSignal('reload', { ensure: 'stopped' }, running).actions).to.deep.equal([]);
    });
    it('start: starts a stopped service, whatever ensure says; nothing when running', () => {
      expect(decideSignal('start', { ensure: 'stopped' }, stopped).actions).to.deep.equal(['start']);
      expect(decideSignal('start', { ensure: 'running' }, running)).to.deep.include({ actions: [], unchanged: 'already running' });
    });
    it('stop: stops a running service, whatever ensure says; nothing when stopped', () => {
      const d = decideSignal('stop', { ensure: 'running' }, running);
      expect(d.actions).to.deep.equal(['stop']);
      expect(d.expect).to.deep.equal({ running: false });
      expect(decideSignal('stop', { ensure: 'running' }, stopped)).to.deep.include({ actions: [], unchanged: 'already stopped' });
    });
    it('knows exactly refresh, restart, reload, start and stop (the signals its description accepts)', () => {
      expect(description.signals).to.deep.equal(['refresh', 'restart', 'reload', 'start', 'stop']);
      for (const s of description.signals) expect(decideSignal(s, { ensure: 'running' }, running).actions.length, s).to.be.at.most(1);
    });
  });

  describe('messages', () => {
    it('uses the seed noop messages exactly', () => {
      expect(noopMessage(['start'])).to.equal('Would have started');
      expect(noopMessage(['stop'])).to.equal('Would have stopped');
      expect(noopMessage(['restart'])).to.equal('Would have restarted');
      expect(noopMessage(['enable'])).to.equal('Would have enabled');
      expect(noopMessage(['disable'])).to.equal('Would have disabled');
      expect(noopMessage(['reload'])).to.equal('Would have reloaded');
    });
    it('joins two actions, each message whole', () => {
      expect(noopMessage(['start', 'enable'])).to.equal('Would have started; Would have enabled');
      expect(appliedMessage(['stop', 'disable'])).to.equal('stopped; disabled');
    });
    it('describes a status', () => {
      expect(describeStatus(running, false)).to.equal('running');
      expect(describeStatus(on(stopped), true)).to.equal('stopped, enabled');
    });
  });

  describe('desired-state validation', () => {
    it('passes when every expected dimension holds', () => {
      expect(unmetDimensions(desiredExpectation({ ensure: 'running', enable: true }), on(running))).to.deep.equal([]);
      expect(unmetDimensions(desiredExpectation({ ensure: 'stopped' }), on(stopped))).to.deep.equal([]);
    });
    it('names the running dimension', () => {
      expect(unmetDimensions({ running: true }, stopped)).to.deep.equal(['running state is stopped, wanted running']);
    });
    it('names the enabled dimension, checked only when enable is set', () => {
      expect(unmetDimensions(desiredExpectation({ ensure: 'running', enable: false }), on(running))).to.deep.equal([
        'enabled state is enabled, wanted disabled',
      ]);
      expect(unmetDimensions(desiredExpectation({ ensure: 'running' }), on(running))).to.deep.equal([]);
    });
    it('names both when both missed', () => {
      expect(unmetDimensions({ running: false, enabled: true }, running)).to.have.length(2);
    });
  });
});
