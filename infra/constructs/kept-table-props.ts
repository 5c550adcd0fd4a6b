import { RemovalPolicy } from 'aws-cdk-lib';
import { BillingMode, TableEncryption, type TableProps } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';

/**
 * How the stack keeps every table that holds what the gateway sent (transactions, refusals):
 * - on demand: callback traffic follows the gateway's bursts, and costs nothing while none arrive;
 * - PITR: a bad deploy or a mistaken script can be rolled back to any second of 35 days;
 * - neither an API call nor a stack deletion may drop it: `cdk destroy` leaves it behind (RETAIN);
 * - the stack's customer-managed key when there is one, else the AWS-owned DynamoDB key (no KMS
 *   charges, no key policy to manage).
 */
export function keptTableProps(
  encryptionKey: IKey | undefined,
): Pick<
  TableProps,
  | 'billingMode'
  | 'pointInTimeRecoverySpecification'
  | 'deletionProtection'
  | 'removalPolicy'
  | 'encryption'
  | 'encryptionKey'
> {
  return {
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
    ...(encryptionKey
      ? { encryption: TableEncryption.CUSTOMER_MANAGED, encryptionKey }
      : { encryption: TableEncryption.DEFAULT }),
  };
}
