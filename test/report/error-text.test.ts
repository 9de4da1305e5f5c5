import { expect } from 'chai';
import { reportErrorText } from '../../src/report/error-text.js';

describe("a report's error as text #once", () => {
  it('says the file and line, the rendered line when no source line is known, or the message alone', () => {
    expect(reportErrorText({ file: 'site.hcl', line: 9, column: 3, message: 'unknown key' })).to.equal('site.hcl:9:3: unknown key');
    expect(reportErrorText({ file: 'site.hcl', rendered_line: 46, message: 'bad' })).to.equal('site.hcl (line 46 of the rendered text): bad');
    expect(reportErrorText({ message: 'interrupted by SIGTERM' })).to.equal('interrupted by SIGTERM');
  });
});
