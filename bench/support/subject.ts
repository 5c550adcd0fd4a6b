import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

/** A receiver under measurement, invoked as Lambda invokes it. */
export type Invoke = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;

/** The two receivers the benchmark compares, always in this order. */
export const subjectNames = ['ours', 'baseline'] as const;
export type SubjectName = (typeof subjectNames)[number];
