import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import { EventBridgePublisher } from '../../lambda/events/event-publisher.js';
import { createEventBridgeClient } from '../../lambda/events/eventbridge-client.js';
import { UsageError } from '../shared/cli-errors.js';

/** Per-attempt bound of every call the ops commands make; a hung connection fails, not hangs. */
const requestTimeoutMs = 10_000;
const requestHandler = { requestTimeout: requestTimeoutMs, throwOnRequestTimeout: true };

/** The stream consumer's own EventBridge client and publisher: the same limits and retries. */
export function eventPublisher(): EventBridgePublisher {
  return new EventBridgePublisher(createEventBridgeClient());
}

export function sqsClient(): SQSClient {
  return new SQSClient({ requestHandler });
}

export function streamsClient(): DynamoDBStreamsClient {
  return new DynamoDBStreamsClient({ requestHandler });
}

/** `--bus`, else `EVENT_BUS_NAME` as the stream consumer reads it. */
export function eventBusName(option: string | undefined): string {
  const name = option ?? process.env.EVENT_BUS_NAME;
  if (!name) {
    throw new UsageError(
      'name the bus with --bus or EVENT_BUS_NAME (the stack output EventBusName)',
    );
  }
  return name;
}
