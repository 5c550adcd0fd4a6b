import {
  CloudWatchClient,
  type CloudWatchClientConfig,
  GetMetricDataCommand,
} from '@aws-sdk/client-cloudwatch';
import { requestHandler } from '../../cli/request-handler.js';
import type { ActivitySource } from './activity-source.js';
import { cloudWatchActivity } from './cloudwatch-activity.js';

/**
 * `npm run console`'s Activity source for a deployed stack: CloudWatch with the operator's
 * credentials and region (`config` for an endpoint or region of its own). A call that hangs
 * fails after the CLI's request timeout instead of holding the page.
 */
export function createCloudWatchActivity(
  stackName: string,
  config: Omit<CloudWatchClientConfig, 'requestHandler'> = {},
): { readonly source: ActivitySource; destroy(): void } {
  const client = new CloudWatchClient({ ...config, requestHandler });
  return {
    source: cloudWatchActivity({
      stackName,
      getMetricData: (input) => client.send(new GetMetricDataCommand(input)),
    }),
    destroy: () => client.destroy(),
  };
}
