import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../scripts/cli/cli-errors.js';
import {
  checkForwardTarget,
  forwardUrl,
} from '../../../../scripts/operations/events/forward-destination.js';
import { isLoopbackUrl } from '../../../../scripts/operations/events/loopback-url.js';

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
  it('refuses a target that is no http(s) URL at all, naming the option', () => {
    for (const value of ['not a url', 'ftp://127.0.0.1/events']) {
      expect(() => forwardUrl(value, '--forward-to')).toThrow(
        `--forward-to must be an http(s) URL, got ${value}`,
      );
    }
    expect(forwardUrl('http://127.0.0.1:4000', '--forward-to')).toBe('http://127.0.0.1:4000/');
    expect(isLoopbackUrl('not a url')).toBe(false);
  });
});
