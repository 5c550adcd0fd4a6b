import { splitKeys } from '../../lambda/config/config.js';
import { isLoopbackUrl } from '../operations/events/loopback-url.js';
import { type LockOwner, readLockOwner } from './data-lock.js';
import { type LocalData, readDevKey } from './local-data.js';

/** The `npm start` server holding this data folder, once it answers. */
export async function runningServer(data: LocalData): Promise<LockOwner | undefined> {
  if (data.kind === 'memory') return undefined;
  const owner = await readLockOwner(data.lockFile);
  return owner?.role === 'server' && owner.url ? owner : undefined;
}

/**
 * The key local mode accepts: the first of `CALLBACK_API_KEYS`, else the dev key `npm start`
 * saved, unless the server takes its keys from its own environment. Never sent off this machine.
 */
export async function localApiKey(data: LocalData, server?: LockOwner) {
  const [first] = splitKeys(process.env.CALLBACK_API_KEYS ?? '');
  if (first || server?.keySource === 'environment') return first;
  return readDevKey(data);
}

/** `HOST` as local mode binds it: loopback, or open to the network. */
export function isLoopbackHost(host: string): boolean {
  return isLoopbackUrl(`http://${urlHost(host)}/`);
}

/** `host` as a URL writes it: an IPv6 address in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
