// systemd unit names: which unit a unit resource's file configures, and which files a service reads.
import { expect } from 'chai';
import { serviceUnit, UNIT_FILE_PATTERN, unitOfFile, unitsReadBy } from '../../src/shared/systemd-unit.js';

describe('systemd unit names #once', () => {
  it('a unit resource names a unit file or a drop-in; anything else is not one', () => {
    const whole = new RegExp(`^(?:${UNIT_FILE_PATTERN})$`, 'u');
    for (const ok of ['app.service', 'getty@.service', 'getty@tty1.service', 'backup.timer', 'mnt-data\\x2dold.mount', 'app.service.d/limits.conf', 'getty@.service.d/10-x.conf']) {
      expect(whole.test(ok), ok).to.equal(true);
    }
    for (const bad of ['app', 'app.conf', 'app.service/x', 'app.service.d/x', 'app.service.d/../x.conf', '../app.service', 'app.service.d/a/b.conf', 'a b.service', '/etc/app.service']) {
      expect(whole.test(bad), bad).to.equal(false);
    }
  });

  it('the unit of a drop-in is the unit its directory is named after', () => {
    expect(unitOfFile('app.service')).to.equal('app.service');
    expect(unitOfFile('app.service.d/limits.conf')).to.equal('app.service');
    expect(unitOfFile('getty@.service.d/x.conf')).to.equal('getty@.service');
    expect(unitOfFile('not-a-unit')).to.equal(undefined);
  });

  it('a service name is a .service unit unless it says its type; an instance reads its template too', () => {
    expect(serviceUnit('nginx')).to.equal('nginx.service');
    expect(serviceUnit('nginx.service')).to.equal('nginx.service');
    expect(serviceUnit('docker.socket')).to.equal('docker.socket');
    expect(serviceUnit('php8.2-fpm')).to.equal('php8.2-fpm.service');
    expect(unitsReadBy('getty@tty1.service')).to.deep.equal(['getty@tty1.service', 'getty@.service']);
    expect(unitsReadBy('getty@.service')).to.deep.equal(['getty@.service']);
    expect(unitsReadBy('nginx.service')).to.deep.equal(['nginx.service']);
  });
});
