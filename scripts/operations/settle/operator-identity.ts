import { userInfo } from 'node:os';
import { requestHandler } from '../../cli/request-handler.js';

/**
 * Who settles, for the record: on AWS the caller's IAM identity (STS GetCallerIdentity, the ARN
 * of the role session or user the credentials belong to), so the record names what CloudTrail
 * names; against local mode the OS user. It is never taken from a flag: an audit record the
 * operator can type is no audit record.
 */
export async function operatorIdentity(target: { readonly aws: boolean }): Promise<string> {
  if (!target.aws) return `local:${userInfo().username}`;
  return callerArn();
}

/** The STS client module; loaded only against AWS (see callerArn). */
const stsModule = '@aws-sdk/client-sts';

interface StsModule {
  STSClient: new (
    config: object,
  ) => {
    send(command: unknown): Promise<{ Arn?: string }>;
    destroy(): void;
  };
  GetCallerIdentityCommand: new (input: object) => unknown;
}

/**
 * GetCallerIdentity needs no permission. The STS client is loaded by name at run time: it is a
 * dependency only operators who settle against AWS need.
 */
async function callerArn(): Promise<string> {
  let sts: StsModule;
  try {
    sts = (await import(stsModule)) as StsModule;
  } catch {
    throw new Error(
      `settling against AWS records the caller's IAM ARN, which needs ${stsModule}; it is not ` +
        'installed here (npm install it, then run again)',
    );
  }
  const client = new sts.STSClient({ requestHandler });
  try {
    const { Arn } = await client.send(new sts.GetCallerIdentityCommand({}));
    if (!Arn) throw new Error('STS GetCallerIdentity returned no ARN');
    return Arn;
  } finally {
    client.destroy();
  }
}
