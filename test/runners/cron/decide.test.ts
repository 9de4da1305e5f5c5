// The cron job's file, and the time fields' patterns row by row (crontab(5)).
import { expect } from 'chai';
import { cronContent } from '../../../src/runners/cron/decide.js';
import { FIELDS } from '../../../src/runners/cron/fields.js';
import { job } from './job.js';

const accepts = (key: keyof typeof FIELDS, value: string) => new RegExp(`^(?:${FIELDS[key].pattern})$`, 'u').test(value);

describe('cron job #once', () => {
  const table: [keyof typeof FIELDS, string[], string[]][] = [
    ['minute', ['*', '0', '59', '05', '*/15', '0-30', '0-30/5', '0,15,30,45', '1-5,*/20'], ['60', '-1', '*/0', '1-', ',', '1,,2', 'a', '1 2', '*/']],
    ['hour', ['*', '0', '23', '9-17', '*/2', '8,12'], ['24', '25', '9-24']],
    ['monthday', ['1', '31', '1-15', '*/2'], ['0', '32', '00']],
    ['month', ['1', '12', 'jan', 'Dec', 'JUN', '1-6', '*/3'], ['0', '13', 'jan-mar', 'jan,feb', 'janu']],
    ['weekday', ['0', '7', '1-5', 'mon', 'Sun', '*/2', '0,6'], ['8', 'mon-fri', 'mon,tue', 'monday']],
  ];
  for (const [key, good, bad] of table) {
    it(`${key}: accepts ${good.join(' ')}; refuses ${bad.join(' ')}`, () => {
      for (const value of good) expect(accepts(key, value), value).to.equal(true);
      for (const value of bad) expect(accepts(key, value), value).to.equal(false);
    });
  }

  it('writes the environment, then the five fields (or the @ schedule), the user and the command', () => {
    expect(cronContent(job({ command: '/usr/local/bin/backup --quiet', user: 'backup', schedule: '30 2 * * 1-5', environment: ['MAILTO=ops@example.org'] }))).to.equal(
      '# Managed by govern: cron "backup"\nMAILTO=ops@example.org\n30 2 * * 1-5 backup /usr/local/bin/backup --quiet\n',
    );
    expect(cronContent(job({ name: 'r', schedule: '@reboot' }))).to.equal('# Managed by govern: cron "r"\n@reboot root x\n');
  });
});
