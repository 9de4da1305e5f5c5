// The lines where a template reads a variable: what a module's sensitive parameter taints.
import { expect } from 'chai';
import { variableLines } from '../../src/templates/engine.js';

describe('templates: the lines that read a variable #once', () => {
  it('finds a variable as a value, a helper argument, a block condition and through @root; not a key of the same name', () => {
    const source = [
      'file "/a" {', //                              1
      '  contents = "{{pw}}"', //                     2
      '}', //                                         3
      '{{#if pw}}', //                                4
      'x = {{quote (upper pw)}}', //                  5
      '{{/if}}', //                                   6
      '{{#each list}}{{@root.pw}}{{/each}}', //        7
      'pw = "{{other}}"', //                          8
      '{{lookup map "pw"}}', //                       9
    ].join('\n');
    expect(variableLines(source, new Set(['pw']))).to.deep.equal([2, 4, 5, 7]);
    expect(variableLines(source, new Set(['other', 'map']))).to.deep.equal([8, 9]);
    expect(variableLines('no mustache', new Set(['pw']))).to.deep.equal([]);
    expect(variableLines('{{#if pw}} unclosed', new Set(['pw']))).to.deep.equal([]);
  });

  it('finds every line of a block given a variable as its context or items, where a bare name or {{this}} reads it; not of an {{#if}}', () => {
    const source = [
      '{{#with db}}', //                              1
      'file "/a" {', //                               2
      '  contents = "{{upper password}}"', //        3
      '}', //                                         4
      '{{/with}}', //                                 5
      '{{#each keys as |k|}}x = "{{base64 k}}"', //   6
      '{{/each}}', //                                 7
      '{{#if db}}', //                                8
      'y = "{{other}}"', //                           9
      '{{/if}}', //                                  10
      '{{#db}}{{password}}', //                      11
      '{{/db}}', //                                  12
      '{{#each list}}{{this}}{{/each}}', //          13
    ].join('\n');
    expect(variableLines(source, new Set(['db', 'keys']))).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 11, 12]);
  });

  it('finds the lines that read every variable at once: this at the top or in an {{#if}}, @root, ..; not this of an {{#each}} item', () => {
    const source = [
      '{{#each this}}{{@key}} = "{{base64 this}}"', //   1
      '{{/each}}', //                                   2
      'a = "{{upper (lookup @root "pw")}}"', //         3
      '{{#if x}}b = "{{json this}}"{{/if}}', //         4
      '{{#each list}}c = "{{this}}"', //                5
      'd = "{{json ..}}"{{/each}}', //                  6
      'e = "{{@index}}"', //                            7
    ].join('\n');
    expect(variableLines(source, new Set(['pw']))).to.deep.equal([1, 2, 3, 4, 6]);
  });
});
