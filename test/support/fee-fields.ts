import {
  decimal,
  type FieldDeclarations,
  transactionFields,
} from '../../lambda/callback/transaction-fields.js';
import { transactionsTableOf } from '../../lambda/storage/table-definition.js';

/**
 * A FIXTURE declaration, not the product's: the real transaction plus the change a gateway
 * makes most often, an optional decimal `fee` added in version 2 and used everywhere a field can
 * be (compared, published, listed, reconciled). Tests follow it through every consumer.
 */
export const feeFields = {
  ...transactionFields,
  // Declared as docs/design.md's "Adding a field" says: the kind's constructor, what differs.
  fee: decimal({
    required: false,
    listed: 'fee',
    reconciled: true,
    since: 2,
    rule: 'optional non-negative decimal: what the gateway charged, in minor units',
  }),
} as const satisfies FieldDeclarations;

/** The transactions table as the fixture declaration defines it (list indexes `…V2`). */
export const feeTable = transactionsTableOf(feeFields);
