import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

let counters = 0;

/**
 * Records the name of every command `client` sends from now on (as `PutItem`, `GetItem`, ...),
 * counted at the SDK client as bench/measure/request-counts.ts counts them. `stop()` removes it.
 */
export function recordRequests(client: DynamoDBClient) {
  const names: string[] = [];
  const name = `request-counter-${++counters}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      names.push(String(context.commandName).replace(/Command$/, ''));
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    requests: () => [...names],
    stop: () => client.middlewareStack.remove(name),
  };
}
