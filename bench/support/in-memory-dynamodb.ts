import { Readable } from 'node:stream';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

type Item = Record<string, AttributeValue>;

interface Request {
  readonly headers: Record<string, string>;
  readonly body?: unknown;
}

interface DynamoDbInput {
  TableName: string;
  Item?: Item;
  Key?: Item;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Item;
  UpdateExpression?: string;
  ReturnValuesOnConditionCheckFailure?: string;
}

/**
 * A DynamoDB client whose HTTP handler answers from a `Map` instead of the network: every SDK
 * step a real call takes (building the command, marshalling, SigV4 signing, JSON serialization,
 * parsing the answer, turning a failed condition into `ConditionalCheckFailedException`) runs as
 * in Lambda, only the round trip is gone. It understands exactly the requests the two receivers
 * send: `PutItem` with `attribute_not_exists` (and Powertools' expired-record alternatives),
 * `UpdateItem` with `SET`, `GetItem` and `DeleteItem`, each table keyed by the named attribute.
 */
export function inMemoryDynamoDbClient(keyAttributes: Readonly<Record<string, string>>) {
  const tables = new Map<string, Map<string, Item>>();
  const keyOf = (input: DynamoDbInput, item: Item): string => {
    const attribute = keyAttributes[input.TableName];
    if (attribute === undefined) throw new Error(`no key attribute for ${input.TableName}`);
    return JSON.stringify(item[attribute]);
  };
  const table = (name: string) => {
    const found = tables.get(name) ?? new Map<string, Item>();
    tables.set(name, found);
    return found;
  };

  const operations: Record<string, (input: DynamoDbInput) => Answer> = {
    PutItem(input) {
      const items = table(input.TableName);
      const item = input.Item ?? {};
      const key = keyOf(input, item);
      const existing = items.get(key);
      if (existing && input.ConditionExpression && !conditionHolds(input, existing)) {
        return conditionFailed(
          input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' ? existing : undefined,
        );
      }
      items.set(key, item);
      return ok({});
    },
    UpdateItem(input) {
      const items = table(input.TableName);
      const key = keyOf(input, input.Key ?? {});
      const item = { ...(items.get(key) ?? input.Key ?? {}) };
      const assignments = (input.UpdateExpression ?? '').replace(/^SET /, '').split(', ');
      for (const assignment of assignments) {
        const [name = '', value = ''] = assignment.split(' = ');
        const attribute = input.ExpressionAttributeNames?.[name] ?? name;
        const newValue = input.ExpressionAttributeValues?.[value];
        if (newValue) item[attribute] = newValue;
      }
      items.set(key, item);
      return ok({});
    },
    GetItem(input) {
      const item = table(input.TableName).get(keyOf(input, input.Key ?? {}));
      return ok(item ? { Item: item } : {});
    },
    DeleteItem(input) {
      table(input.TableName).delete(keyOf(input, input.Key ?? {}));
      return ok({});
    },
  };

  const requestHandler = {
    metadata: { handlerProtocol: 'http/1.1' },
    destroy: () => {},
    updateHttpClientConfig: () => {},
    httpHandlerConfigs: () => ({}),
    async handle(request: Request) {
      const operation = (request.headers['x-amz-target'] ?? '').split('.').pop() ?? '';
      const run = operations[operation];
      if (!run) throw new Error(`in-memory DynamoDB does not answer ${operation}`);
      const answer = run(JSON.parse(String(request.body)) as DynamoDbInput);
      return {
        response: {
          statusCode: answer.status,
          reason: answer.status === 200 ? 'OK' : 'Bad Request',
          headers: { 'content-type': 'application/x-amz-json-1.0' },
          body: Readable.from([Buffer.from(JSON.stringify(answer.body))]),
        },
      };
    },
  };

  return new DynamoDBClient({
    endpoint: 'http://dynamodb.in-memory',
    region: 'us-east-1',
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
    maxAttempts: 1,
    requestHandler,
  });
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

const ok = (body: unknown): Answer => ({ status: 200, body });

function conditionFailed(item: Item | undefined): Answer {
  return {
    status: 400,
    body: {
      __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
      message: 'The conditional request failed',
      ...(item ? { Item: item } : {}),
    },
  };
}

/**
 * `attribute_not_exists(...)` fails on an existing item unless the expression also allows an
 * expired record (`#expiry < :now`) or an expired IN_PROGRESS lock, as Powertools' does.
 */
function conditionHolds(input: DynamoDbInput, existing: Item): boolean {
  const expression = input.ConditionExpression ?? '';
  const names = input.ExpressionAttributeNames ?? {};
  const values = input.ExpressionAttributeValues ?? {};
  const number = (value: AttributeValue | undefined) => Number(value?.N ?? Number.NaN);
  if (expression.includes('#expiry < :now')) {
    if (number(existing[names['#expiry'] ?? '']) < number(values[':now'])) return true;
  }
  if (expression.includes('#in_progress_expiry < :now_in_millis')) {
    const status = existing[names['#status'] ?? '']?.S;
    const lock = number(existing[names['#in_progress_expiry'] ?? '']);
    if (status === values[':inprogress']?.S && lock < number(values[':now_in_millis'])) {
      return true;
    }
  }
  return false;
}
