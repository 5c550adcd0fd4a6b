import { signed } from '../../support/fixtures.js';
import { fields, type NamedCase } from './named-request.js';

/**
 * Named cases of what DynamoDB refuses and dynalite does not check. An empty or over-long
 * username could not key the byUser index (fixed: the index keys a copy, left out when it cannot
 * be a key). An empty name in a map was refused too (fixed: extra members are stored as JSON text).
 */
export const engineLimitCases: readonly NamedCase[] = [
  {
    name: 'an empty username (docs: a string)',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { username: '' })) }),
  },
  {
    name: 'a username of 2,049 bytes (docs: a string)',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { username: `${'ğ'.repeat(1024)}x` })) }),
  },
  {
    name: 'an extra member named "" (docs: accepted and stored)',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { '': 'x' })) }),
  },
  {
    name: 'an extra member holding an empty member name',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { meta: { '': 0 } })) }),
  },
];
