import { Option } from '@commander-js/extra-typings';
import { UsageError } from '../../cli/cli-errors.js';
import { isLoopbackUrl } from './loopback-url.js';

/** An http(s) URL, as `--forward-events`, `FORWARD_EVENTS_URL` and `--forward-to` take it. */
export function forwardUrl(value: string, name: string): string {
  const url = URL.parse(value);
  if (url === null || !['http:', 'https:'].includes(url.protocol)) {
    throw new UsageError(`${name} must be an http(s) URL, got ${value}`);
  }
  return url.href;
}

/**
 * `--allow-remote`: events carry names and amounts, so every command that forwards them sends to
 * this machine only unless told otherwise, and then over https only.
 */
export function allowRemoteOption() {
  return new Option(
    '--allow-remote',
    'let the events (names, amounts) go to another machine, over https only',
  ).default(false);
}

/**
 * Refuses a target off this machine without `--allow-remote`, and one over plain http with it:
 * a typo or a pasted URL must not send customers' names and amounts across the network.
 */
export function checkForwardTarget(url: string, name: string, allowRemote: boolean): void {
  if (isLoopbackUrl(url)) return;
  if (!allowRemote) {
    throw new UsageError(
      `${name} ${url} is not on this machine: events carry names and amounts, so they go to ` +
        'localhost, 127.0.0.1 or [::1] unless --allow-remote is given (https only)',
    );
  }
  if (!url.startsWith('https:')) {
    throw new UsageError(
      `${name} ${url}: with --allow-remote events leave this machine over https only`,
    );
  }
}

/** `--forward-to`: replay and redrive POST to a URL instead of putting to a bus. */
export function forwardToOption(
  description = 'POST the events to this URL, as local mode forwards them, instead of putting them on a bus',
) {
  return new Option('--forward-to <url>', description).argParser((value) =>
    forwardUrl(value, '--forward-to'),
  );
}
