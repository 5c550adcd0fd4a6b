import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  fraction,
  httpUrl,
  positiveInteger,
  reportFailure,
  UsageError,
  unreadableFile,
} from '../../../scripts/cli/cli-errors.js';

/**
 * How every command reports a failure (the words and the exit code a script reads) and what
 * the option parsers say about a bad value.
 */

describe('reportFailure', () => {
  let written: string;
  beforeEach(() => {
    written = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
      written += String(text);
      return true;
    });
    vi.stubEnv('npm_lifecycle_event', 'query');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    process.exitCode = undefined;
  });

  it('prints a usage error with the help hint and exits 2', () => {
    reportFailure('query', new UsageError('--since must be a date'));

    expect(written).toBe('query: --since must be a date\nTry: npm run query -- --help\n');
    expect(process.exitCode).toBe(2);
  });

  it('prints any other failure without its stack and exits 3', () => {
    reportFailure('query', new Error('table not found'));

    expect(written).toBe('query failed: table not found\n');
    expect(process.exitCode).toBe(3);
  });

  it('prints the stack too when DEBUG is set', () => {
    vi.stubEnv('DEBUG', '1');

    reportFailure('query', new Error('table not found'));

    expect(written).toMatch(/^query failed: table not found\nError: table not found\n {4}at /);
  });

  it('reports a thrown non-error by its text, controls made visible line by line', () => {
    reportFailure('query', 'stored \u001b[2J text\nsecond line');

    expect(written).not.toContain('\u001b');
    expect(written).toMatch(/^query failed: stored \S+ text\nsecond line\n$/);
    expect(process.exitCode).toBe(3);
  });
});

describe('unreadableFile', () => {
  const because = (code: string | undefined, message = 'low-level') =>
    unreadableFile('the key file', 'keys.txt', Object.assign(new Error(message), { code }));

  it.each([
    ['ENOENT', 'no such file'],
    ['EACCES', 'permission denied'],
    ['EISDIR', 'it is a folder'],
    ['ENAMETOOLONG', 'the name is too long for a file'],
    ['EIO', 'EIO'],
  ])('says %s as "%s", as a usage error', (code, reason) => {
    const error = because(code);

    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(`cannot read the key file keys.txt: ${reason}`);
  });

  it('gives the error message when there is no code, and "unreadable" when there is no error', () => {
    expect(because(undefined, 'disk gone').message).toBe(
      'cannot read the key file keys.txt: disk gone',
    );
    expect(unreadableFile('the body', 'body.json', undefined).message).toBe(
      'cannot read the body body.json: unreadable',
    );
  });

  it('cuts a long name short: a body pasted where a path belongs is not echoed whole', () => {
    const pasted = `{"reference":"${'r'.repeat(100)}"}`;

    const { message } = unreadableFile('the body', pasted, { code: 'ENAMETOOLONG' });

    expect(message).toBe(
      `cannot read the body ${pasted.slice(0, 60)}… (${pasted.length} characters): the name is too long for a file`,
    );
  });
});

describe('option parsers', () => {
  it('take a positive integer, and name the option when given anything else', () => {
    expect(positiveInteger('--count')('200')).toBe(200);
    for (const value of ['0', '-1', '1.5', '01', 'ten']) {
      expect(() => positiveInteger('--count')(value)).toThrow(
        new UsageError(`--count must be a positive integer, got ${value}`),
      );
    }
  });

  it('take a fraction from 0 to 1, and refuse blanks, words and values outside', () => {
    expect(fraction('--duplicates')('0')).toBe(0);
    expect(fraction('--duplicates')('0.25')).toBe(0.25);
    expect(fraction('--duplicates')('1')).toBe(1);
    for (const value of ['', ' ', '-0.1', '1.01', 'half', 'Infinity']) {
      expect(() => fraction('--duplicates')(value)).toThrow(
        `--duplicates must be a fraction between 0 and 1, got ${value}`,
      );
    }
  });

  it('take an absolute http(s) URL, normalised, and say what is wrong with others', () => {
    expect(httpUrl('--url')('HTTP://Example.com:3000/callback')).toBe(
      'http://example.com:3000/callback',
    );
    expect(() => httpUrl('--url')('not-a-url')).toThrow(
      '--url must be an absolute http:// or https:// URL, got not-a-url',
    );
    expect(() => httpUrl('--url')('ftp://example.com/callback')).toThrow(
      '--url must be an http:// or https:// URL, got ftp: in ftp://example.com/callback',
    );
  });
});
