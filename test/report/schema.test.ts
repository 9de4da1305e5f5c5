// The schema `govern status` checks records against is the one docs/report.md publishes.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { REPORT_SCHEMA } from '../../src/report/schema.js';

const ROOT = path.join(__dirname, '..', '..', '..');

describe('the report schema #once', () => {
  it('is the one docs/report.md publishes', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'report.md'), 'utf8');
    const block = /<!-- report-schema -->\n```json\n([\s\S]*?)\n```/.exec(doc);
    expect(block, 'docs/report.md has its schema block').to.not.equal(null);
    expect(REPORT_SCHEMA).to.deep.equal(JSON.parse(block![1]));
  });
});
