/**
 * The REST API's name and stage: the stack gives them (constructs/callback-api.ts), and they are
 * the dimensions of API Gateway's metrics, which the console's Activity view reads back. A light
 * module, so the console does not load the CDK to know them.
 */
export const stageName = 'prod';

export function callbackApiName(stackName: string): string {
  return `${stackName}-callbacks`;
}
