import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../scripts/cli/cli-errors.js';
import { checkForwardTarget } from '../../../../scripts/operations/events/forward-destination.js';

describe('where forwarded events may go', () => {
  it('lets events go to this machine over plain http, whatever the flag', () => {
    for (const url of [
      'http://localhost:4000/events',
      'http://127.0.0.1:4000/',
      'http://[::1]:4000/',
      'http://consumer.localhost/',
    ]) {
      expect(() => checkForwardTarget(url, '--forward-to', false)).not.toThrow();
    }
  });

  it('refuses another machine without --allow-remote, naming the flag', () => {
    for (const url of ['https://events.example.com/', 'http://10.0.0.5:4000/']) {
      expect(() => checkForwardTarget(url, '--forward-to', false)).toThrow(UsageError);
      expect(() => checkForwardTarget(url, '--forward-to', false)).toThrow(
        /is not on this machine: .*unless --allow-remote is given \(https only\)$/,
      );
    }
  });

  it('with --allow-remote, takes https and still refuses plain http', () => {
    expect(() =>
      checkForwardTarget('https://events.example.com/', '--forward-to', true),
    ).not.toThrow();
    expect(() => checkForwardTarget('http://events.example.com/', '--forward-to', true)).toThrow(
      /over https only$/,
    );
  });
});
