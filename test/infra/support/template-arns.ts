/**
 * A synthesized template's policies with concrete ARNs, for an offline IAM evaluator: every
 * intrinsic function a policy holds (Ref, Fn::GetAtt, Fn::Join, Fn::Select, Fn::Split) resolved
 * as CloudFormation would in one account and region, a resource's physical name standing in as
 * its logical ID (or the name the template gives it). A reference this does not know throws, so
 * a new kind of resource in a policy cannot be silently mis-resolved.
 */

export const account = '111122223333';
export const region = 'us-east-1';
/** What CloudFormation would return for `AWS::StackId`. */
export const stackId = (stackName: string) =>
  `arn:aws:cloudformation:${region}:${account}:stack/${stackName}/5b0c2f6e-7d4a-4c1b-9a3e-2f8d6b1c0e94`;

export interface TemplateJson {
  readonly Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}

const pseudo: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': region,
  'AWS::AccountId': account,
  'AWS::URLSuffix': 'amazonaws.com',
};

export function resolveArns(value: unknown, template: TemplateJson, stackName: string): unknown {
  const resolve = (inner: unknown): unknown => resolveArns(inner, template, stackName);
  if (Array.isArray(value)) return value.map(resolve);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const [first] = entries;
  if (entries.length === 1 && first) {
    const [key, argument] = first;
    if (key === 'Ref') return ref(String(argument), template, stackName);
    if (key === 'Fn::GetAtt') {
      const [id, attribute] = argument as [string, string];
      return getAtt(id, attribute, template);
    }
    if (key === 'Fn::Join') {
      const [separator, parts] = argument as [string, unknown[]];
      return parts.map((part) => String(resolve(part))).join(separator);
    }
    if (key === 'Fn::Select') {
      const [index, list] = argument as [number, unknown];
      return (resolve(list) as unknown[])[index];
    }
    if (key === 'Fn::Split') {
      const [separator, source] = argument as [string, unknown];
      return String(resolve(source)).split(separator);
    }
  }
  return Object.fromEntries(entries.map(([key, inner]) => [key, resolve(inner)]));
}

function resourceOf(id: string, template: TemplateJson) {
  const resource = template.Resources[id];
  if (!resource) throw new Error(`no resource ${id} in the template`);
  return resource;
}

function ref(id: string, template: TemplateJson, stackName: string): string {
  if (id === 'AWS::StackId') return stackId(stackName);
  if (id === 'AWS::StackName') return stackName;
  const known = pseudo[id];
  if (known) return known;
  const { Type, Properties = {} } = resourceOf(id, template);
  switch (Type) {
    case 'AWS::SecretsManager::Secret':
      return `arn:aws:secretsmanager:${region}:${account}:secret:${id}-AbCdEf`;
    case 'AWS::IAM::ManagedPolicy':
      return `arn:aws:iam::${account}:policy/${id}`;
    case 'AWS::Events::EventBus':
      return String(Properties.Name);
    case 'AWS::DynamoDB::Table':
    case 'AWS::IAM::Role':
      return id;
    default:
      throw new Error(`Ref to a ${Type} (${id}): say what it resolves to`);
  }
}

function getAtt(id: string, attribute: string, template: TemplateJson): string {
  const { Type, Properties = {} } = resourceOf(id, template);
  const key = `${Type}.${attribute}`;
  switch (key) {
    case 'AWS::DynamoDB::Table.Arn':
      return `arn:aws:dynamodb:${region}:${account}:table/${id}`;
    case 'AWS::DynamoDB::Table.StreamArn':
      return `arn:aws:dynamodb:${region}:${account}:table/${id}/stream/2026-01-01T00:00:00.000`;
    case 'AWS::Events::EventBus.Arn':
      return `arn:aws:events:${region}:${account}:event-bus/${String(Properties.Name)}`;
    case 'AWS::SQS::Queue.Arn':
      return `arn:aws:sqs:${region}:${account}:${id}`;
    case 'AWS::Logs::LogGroup.Arn':
      return `arn:aws:logs:${region}:${account}:log-group:${id}:*`;
    case 'AWS::IAM::Role.Arn':
      return `arn:aws:iam::${account}:role/${id}`;
    case 'AWS::KMS::Key.Arn':
      return `arn:aws:kms:${region}:${account}:key/${id}`;
    default:
      throw new Error(`Fn::GetAtt ${key} (${id}): say what it resolves to`);
  }
}
