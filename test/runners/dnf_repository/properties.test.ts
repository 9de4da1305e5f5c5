// The dnf_repository properties and the .repo file they make.
import { expect } from 'chai';
import { dnfRepositoryProperties, repoContent } from '../../../src/runners/dnf_repository/properties.js';

const props = (v: Record<string, unknown>) =>
  dnfRepositoryProperties({ name: 'internal', values: { ensure: 'present', baseurl: [], enabled: true, gpgcheck: true, gpgkey: [], ...v } as never });

describe('dnf_repository properties #once', () => {
  it('writes one section: name (the id when no description), the lists space-separated, the flags as 1 and 0, gpgkey only when given', () => {
    expect(repoContent(props({ baseurl: ['https://a.example.org/el9', 'https://b.example.org/el9'], enabled: false })).split('\n')).to.deep.equal([
      '# Written by govern (dnf_repository "internal"); a change made here is undone at its next run.',
      '[internal]',
      'name=internal',
      'baseurl=https://a.example.org/el9 https://b.example.org/el9',
      'enabled=0',
      'gpgcheck=1',
      '',
    ]);
    expect(repoContent(props({ baseurl: ['file:///srv/repo'], description: 'Internal', gpgcheck: false, gpgkey: ['file:///etc/pki/rpm-gpg/KEY'] }))).to.contain(
      'name=Internal\nbaseurl=file:///srv/repo\nenabled=1\ngpgcheck=0\ngpgkey=file:///etc/pki/rpm-gpg/KEY\n',
    );
  });
});
