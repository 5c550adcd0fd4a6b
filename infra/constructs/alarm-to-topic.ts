import { Stack } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  type TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import * as z from 'zod';
import { checkProps } from './checked-props.js';

export interface AlarmToTopicOptions {
  readonly topic: ITopic;
  readonly metric: IMetric;
  readonly threshold: number;
  /** The scenario the alarm is for, as the operator reads it in the notification. */
  readonly description: string;
  /**
   * What a period without data means for this metric: it depends on how the metric is published
   * (EMF and DynamoDB only publish when something happens, SQS stops for an idle queue).
   */
  readonly treatMissingData: TreatMissingData;
  /** @default ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD */
  readonly operator?: ComparisonOperator;
  /** @default 1 */
  readonly evaluationPeriods?: number;
  /** @default evaluationPeriods */
  readonly datapointsToAlarm?: number;
}

const alarmRules = z
  .object({
    evaluationPeriods: z.number().int().positive().optional(),
    datapointsToAlarm: z.number().optional(),
  })
  .refine(
    ({ evaluationPeriods = 1, datapointsToAlarm = evaluationPeriods }) =>
      Number.isInteger(datapointsToAlarm) &&
      datapointsToAlarm >= 1 &&
      datapointsToAlarm <= evaluationPeriods,
    'datapointsToAlarm must be from 1 to evaluationPeriods',
  );

/**
 * An alarm that notifies the topic on alarm and on recovery, named `<stack name>-<id>` so two
 * stacks in one account never share an alarm name.
 */
export function alarmToTopic(scope: Construct, id: string, options: AlarmToTopicOptions): Alarm {
  checkProps(`${scope.node.path}/${id}`, alarmRules, options);
  const evaluationPeriods = options.evaluationPeriods ?? 1;
  const datapointsToAlarm = options.datapointsToAlarm ?? evaluationPeriods;
  const alarm = new Alarm(scope, id, {
    alarmName: `${Stack.of(scope).stackName}-${id}`,
    metric: options.metric,
    threshold: options.threshold,
    comparisonOperator: options.operator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods,
    datapointsToAlarm,
    treatMissingData: options.treatMissingData,
    alarmDescription: options.description,
  });
  const action = new SnsAction(options.topic);
  alarm.addAlarmAction(action);
  alarm.addOkAction(action);
  return alarm;
}
