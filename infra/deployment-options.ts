import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as z from 'zod';
import { hashModes } from '../lambda/config/config.js';
import { defaultRefusalsKeptPerMinute } from '../lambda/refusals/refusal-limits.js';
import { searchIndexNames } from '../lambda/storage/table-definition.js';
import {
  booleanValue,
  cidr,
  listOf,
  positiveInteger,
  positiveNumber,
  retentionValues,
  text,
} from './option-values.js';

/**
 * Every option a deployment can choose, declared once: its name, the type and default shown in
 * docs/deploy.md (a test checks that table against this declaration), what it does, and the zod
 * schema that validates it. The same schemas read `-c name=value` from the command line (always
 * a string) and values from cdk.json (JSON types), and validate the stack's props.
 */
interface OptionDeclaration<Schema extends z.ZodType> {
  /** How the value is written, for the docs table. */
  readonly type: string;
  /** The default, as the docs table shows it. */
  readonly default: string;
  readonly meaning: string;
  readonly schema: Schema;
}

const option = <Schema extends z.ZodType>(declaration: OptionDeclaration<Schema>) => declaration;

/** A CloudFormation stack name that also works as a CloudWatch namespace and a name prefix. */
const stackNamePattern = /^[A-Za-z][A-Za-z0-9-]{0,63}$/;

export const deploymentOptions = {
  stackName: option({
    type: 'letters, digits, `-` (≤ 64)',
    default: '`CallbackReceiver`',
    meaning:
      'Stack name, and the prefix or namespace of everything that must be unique in an account ' +
      'and region: metrics namespace, alarm and dashboard names, export names, WAF web ACL',
    schema: text
      .regex(stackNamePattern, 'must start with a letter; letters, digits and -')
      .default('CallbackReceiver'),
  }),
  hashMode: option({
    type: hashModes.join(' / '),
    default: '`if-present`',
    meaning: "The function's `HASH_MODE`: whether a callback must carry a valid hash",
    schema: text.pipe(z.enum(hashModes)).default('if-present'),
  }),
  throttleRateLimit: option({
    type: 'number (requests/s)',
    default: '`100`',
    meaning: 'Stage steady-state throttle; above it API Gateway answers 429 + `Retry-After`',
    schema: positiveNumber.default(100),
  }),
  throttleBurstLimit: option({
    type: 'integer',
    default: '`200`',
    meaning: 'Stage burst throttle',
    schema: positiveInteger.default(200),
  }),
  reservedConcurrency: option({
    type: 'integer, or `none`',
    default: '`none`',
    meaning:
      'Concurrent executions reserved for (and capped at) the receiver, so a DynamoDB brownout ' +
      'cannot take the account’s whole concurrency; invocations above it are answered 503 + ' +
      '`Retry-After`. The account must keep 100 unreserved besides it: a new account (often 10 ' +
      'in all) cannot reserve any. `none` leaves the function on the unreserved pool',
    schema: z.union([z.literal('none'), positiveInteger]).default('none'),
  }),
  waf: option({
    type: 'boolean',
    default: '`true`',
    meaning:
      'Attach a WAF web ACL to the stage: bodies over 64 KiB refused with 413, a per-address ' +
      'rate rule answering 429, and the allow-list when `allowedSourceIps` is set',
    schema: booleanValue.default(true),
  }),
  allowedSourceIps: option({
    type: 'CIDR list',
    default: 'none (any address)',
    meaning:
      "The payment gateway's addresses: the WAF allows only these (a bare address gets /32 or " +
      '/128). Needs `waf`',
    schema: listOf(cidr, 'must list at least one address').optional(),
  }),
  wafRateLimit: option({
    type: 'integer per 5 min per address',
    default: '`throttleRateLimit` × 150 (half the stage)',
    meaning:
      'WAF rate rule: requests one address may send per 5 minutes before 429, below the ' +
      'stage’s own rate so one address cannot take all of it. Needs `waf`',
    schema: positiveInteger
      .pipe(z.number().min(10, 'must be at least 10 (the WAF minimum)'))
      .optional(),
  }),
  domainName: option({
    type: 'domain name',
    default: 'none',
    meaning:
      'A custom domain for the API (regional, TLS 1.2), the stage at its root: ' +
      '`https://<domainName>/callback`. Needs `certificateArn`; point the name at the ' +
      '`CustomDomainTarget` output in DNS',
    schema: text
      .toLowerCase()
      .regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
        'must be a domain name',
      )
      .optional(),
  }),
  certificateArn: option({
    type: 'ACM certificate ARN',
    default: 'none',
    meaning: 'The certificate for `domainName`, in ACM in the stack’s region. Needs `domainName`',
    schema: text
      .regex(/^arn:[\w-]+:acm:[\w-]+:\d{12}:certificate\/[\w-]+$/, 'must be an ACM certificate ARN')
      .optional(),
  }),
  alarmEmail: option({
    type: 'e-mail address',
    default: 'none',
    meaning: 'E-mail subscription on the alarm topic (confirm it from the first message)',
    schema: text.pipe(z.email('must be an e-mail address')).optional(),
  }),
  existingSecretName: option({
    type: 'secret name or full ARN',
    default: 'none (created)',
    meaning: 'Read the API keys from this secret instead of creating one',
    schema: text.min(1).optional(),
  }),
  existingSecretKeyArn: option({
    type: 'KMS key ARN',
    default: 'none',
    meaning:
      'The customer-managed key `existingSecretName` is encrypted with: the function may ' +
      'decrypt with it through Secrets Manager only. Needs `existingSecretName`',
    schema: text
      .regex(/^arn:[\w-]+:kms:[\w-]+:\d{12}:key\/[\w-]+$/, 'must be a KMS key ARN')
      .optional(),
  }),
  eventPublisherArns: option({
    type: 'IAM role ARN list',
    default: 'none',
    meaning:
      'Roles besides the stream consumer that may publish on the event bus: the operators who ' +
      'run `npx callback-receiver replay` and `npx callback-receiver redrive`. The bus denies PutEvents to every other ' +
      'principal. Not needed at the first deploy: a later deploy adds them, changing only the ' +
      'bus’s policy',
    schema: listOf(
      z.string().regex(/^arn:[\w-]+:iam::\d{12}:role\/[\w+=,.@/-]+$/, 'must be an IAM role ARN'),
      'must list at least one role ARN',
    ).optional(),
  }),
  customerManagedKey: option({
    type: 'boolean',
    default: '`false`',
    meaning:
      'One customer-managed KMS key for the table, a created secret, the alarm topic, the ' +
      'event bus, its archive and the dead-letter queue',
    schema: booleanValue.default(false),
  }),
  logRetentionDays: option({
    type: 'days (a CloudWatch value)',
    default: '`90`',
    meaning: 'Retention of the function, access and execution log groups',
    schema: positiveInteger
      .refine((days) => (retentionValues as number[]).includes(days), {
        message: `must be one of ${retentionValues.join(', ')}`,
      })
      .transform((days) => days as RetentionDays)
      .default(RetentionDays.THREE_MONTHS),
  }),
  apiGatewayCloudWatchRole: option({
    type: 'boolean',
    default: '`true`',
    meaning:
      'Create the account-level role API Gateway writes logs with; `false` when the account ' +
      'already has one (a landing zone, or a second stack in the account)',
    schema: booleanValue.default(true),
  }),
  authFailureAlarmThreshold: option({
    type: 'integer per 5 min',
    default: '`20`',
    meaning: '401 + 403 answers in 5 minutes that raise the auth-failure alarm',
    schema: positiveInteger.default(20),
  }),
  refusalsKeptPerMinute: option({
    type: 'integer per minute',
    default: `\`${defaultRefusalsKeptPerMinute}\``,
    meaning:
      'New refused bodies kept for audit per minute, across all instances; past it a refusal is ' +
      'answered as usual but not kept, counted in `RefusalsNotKept` (alarm). Repeats of a kept ' +
      'body are always counted',
    schema: positiveInteger.default(defaultRefusalsKeptPerMinute),
  }),
  searchIndexes: option({
    type: '`byReference`, `byGatewayId` list',
    default: 'both',
    meaning:
      'The search indexes the transactions table has (the console’s search, `query search`). ' +
      'CloudFormation adds one index per update: a stack deployed without them deploys ' +
      '`byReference` first, then both (docs/deploy.md, "Changing indexes")',
    schema: listOf(z.enum(searchIndexNames), 'must list at least one index').default([
      ...searchIndexNames,
    ]),
  }),
  terminationProtection: option({
    type: 'boolean',
    default: '`false`',
    meaning:
      'CloudFormation termination protection: `cdk destroy` is refused until it is turned off. ' +
      'Turn it on for production',
    schema: booleanValue.default(false),
  }),
  tags: option({
    type: '`key=value` list',
    default: 'none',
    meaning:
      'Tags on every resource, besides `service=callback-receiver`; comma-separated on the ' +
      'command line (`-c tags=environment=production,owner=payments`), an object in cdk.json',
    schema: z
      .union([
        z.record(z.string(), z.string()),
        z.string().transform((value, context) => {
          const entries = value
            .split(',')
            .map((pair) => pair.trim())
            .filter((pair) => pair !== '')
            .map((pair) => {
              const at = pair.indexOf('=');
              if (at <= 0)
                context.addIssue({ code: 'custom', message: `"${pair}" is not key=value` });
              return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()] as const;
            });
          return Object.fromEntries(entries);
        }),
      ])
      .optional(),
  }),
} as const;

export type OptionName = keyof typeof deploymentOptions;
export const optionNames = Object.keys(deploymentOptions) as OptionName[];
