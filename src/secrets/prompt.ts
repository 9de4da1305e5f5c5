// The value of `govern secret set` typed at a terminal: read from the TTY without echo, as passwd
// and ssh-keygen read a passphrase, so it is neither shown nor kept in the shell's history.
import { UserError } from '../shared/errors.js';

export function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let value = '';
    // Echo off before the question: what is typed as soon as it shows is not echoed either.
    stdin.setRawMode(true);
    process.stderr.write(question);
    stdin.resume();
    stdin.setEncoding('utf8');
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003' || ch === '\u0004') return done(new UserError('secret set: no value given (interrupted)'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}
