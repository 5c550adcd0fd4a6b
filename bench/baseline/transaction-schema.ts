import { z } from 'zod';

/**
 * The transaction as most teams would write it: numbers as JavaScript numbers (`JSON.parse` has
 * already rounded anything beyond 2^53), unknown members passed through so the hash can be
 * rebuilt from them.
 */
export const transactionSchema = z.looseObject({
  id: z.number().int().nonnegative(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  amount: z.number().nonnegative(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  type: z.enum(['Deposit', 'Withdrawal']),
  status: z.enum(['Confirm', 'Reject']),
  message: z.string().optional(),
  reference: z.string().min(1).max(256),
  hash: z.string().optional(),
});

export type BaselineTransaction = z.infer<typeof transactionSchema>;
