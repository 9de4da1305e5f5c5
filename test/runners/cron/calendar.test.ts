// The cron runner's systemd form, pure: a schedule as OnCalendar= events (each one checked by the real
// `systemd-analyze calendar`), and the service and timer units written for a job.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { onCalendar, specialCalendar } from '../../../src/runners/cron/calendar.js';
import { timerUnits } from '../../../src/runners/cron/timer-units.js';
import { job } from './job.js';

const fields = (minute: string, hour = '*', monthday = '*', month = '*', weekday = '*') => ({ minute, hour, monthday, month, weekday });
/** systemd's own reading of an event: its normalized form. */
const normalized = (event: string) => /Normalized form: (.*)/.exec(execFileSync('systemd-analyze', ['calendar', event], { encoding: 'utf8' }))![1];

describe('cron schedules as systemd calendar events #once', () => {
  const table: [ReturnType<typeof fields>, string[]][] = [
    [fields('*'), ['*-*-* *:*:00']],
    [fields('30', '2', '*', '*', '1-5'), ['Mon..Fri *-*-* 02:30:00']],
    [fields('*/15', '9-17'), ['*-*-* 09..17:00,15,30,45:00']],
    [fields('0-30/10', '*/6'), ['*-*-* 00,06,12,18:00,10,20,30:00']],
    [fields('5', '4', '*', 'jun', 'sun'), ['Sun *-06-* 04:05:00']],
    [fields('0', '0', '*', '*', '5-7'), ['Fri..Sun *-*-* 00:00:00']],
    [fields('0', '0', '1,15', '*/3'), ['*-01,04,07,10-01,15 00:00:00']],
    // cron runs it on the 1st and on every Monday: two events.
    [fields('0', '12', '1', '*', 'mon'), ['Mon *-*-* 12:00:00', '*-*-01 12:00:00']],
  ];
  for (const [given, events] of table) {
    const line = Object.values(given).join(' ');
    it(`${line} -> ${events.join(' | ')}, which systemd reads`, () => {
      expect(onCalendar(given)).to.deep.equal(events);
      for (const event of events) expect(normalized(event)).to.be.a('string');
    });
  }

  it('a backwards range is refused; the @ schedules have systemd\'s words, but @reboot', () => {
    expect(() => onCalendar(fields('30-10'))).to.throw('minute "30-10": the range 30-10 runs backwards');
    expect(['daily', 'midnight', 'annually', 'hourly', 'weekly'].map(specialCalendar)).to.deep.equal(['*-*-* 00:00:00', '*-*-* 00:00:00', '*-01-01 00:00:00', '*-*-* *:00:00', 'Sun *-*-* 00:00:00']);
    expect(() => specialCalendar('reboot')).to.throw('special = "reboot" has no timer equivalent');
  });
});

describe('the units of a cron job\'s systemd form #once', () => {
  it('a oneshot service running the command in the user\'s shell, values quoted for systemd; the timer with its events', () => {
    const units = timerUnits(
      job({ name: 'backup', command: 'tar czf /srv/b-$(date +\\%F).tgz "/srv/a b"', user: 'backup', fields: fields('30', '2'), environment: ['MAILTO=ops@example.org', 'GREETING=50% "off"'], provider: 'systemd' }),
    );
    expect(units.service).to.equal(
      [
        '# Managed by govern: cron "backup"',
        '[Unit]',
        'Description=cron job backup',
        '',
        '[Service]',
        'Type=oneshot',
        'User=backup',
        'WorkingDirectory=~',
        'Environment="MAILTO=ops@example.org"',
        'Environment="GREETING=50%% \\"off\\""',
        'ExecStart=/bin/sh -c "tar czf /srv/b-$$(date +%%F).tgz \\"/srv/a b\\""',
        '',
      ].join('\n'),
    );
    expect(units.timer).to.contain('\n[Timer]\nOnCalendar=*-*-* 02:30:00\nUnit=backup.service\n\n[Install]\nWantedBy=timers.target\n');
  });

  it('the user scope has no User=; SHELL from the environment; a bare % (cron\'s standard input) is refused', () => {
    const units = timerUnits(job({ scope: 'user', environment: ['SHELL=/bin/bash'], provider: 'systemd' }));
    expect(units.service).to.not.contain('User=');
    expect(units.service).to.contain('ExecStart=/bin/bash -c "x"');
    expect(() => timerUnits(job({ command: 'mail -s hi root%body' }))).to.throw('a % that is not written \\% is cron\'s standard input');
  });

  it('a SHELL that is not an absolute path is refused: a leading + (or -, @, :, !) would be read by systemd as a prefix of ExecStart=, even quoted', () => {
    for (const shell of ['+/bin/sh', '-/bin/sh', '!/bin/sh', 'sh']) {
      expect(() => timerUnits(job({ user: 'backup', environment: [`SHELL=${shell}`], provider: 'systemd' })), shell).to.throw(`environment: SHELL=${shell} is not an absolute path`);
    }
  });
});
