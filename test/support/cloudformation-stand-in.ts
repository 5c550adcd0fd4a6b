import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * CloudFormation's DescribeStacks as AWS answers it (the query protocol's XML), for one stack and
 * its outputs; any other stack name gets AWS's ValidationError. The SDK reaches it through
 * `AWS_ENDPOINT_URL_CLOUDFORMATION`, so a command runs unchanged.
 */
export async function startCloudFormationStandIn(
  stackName: string,
  outputs: Record<string, string>,
) {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const asked = new URLSearchParams(body);
      response.setHeader('content-type', 'text/xml');
      if (asked.get('Action') !== 'DescribeStacks' || asked.get('StackName') !== stackName) {
        response
          .writeHead(400)
          .end(
            `<ErrorResponse><Error><Type>Sender</Type><Code>ValidationError</Code><Message>Stack with id ${asked.get('StackName')} does not exist</Message></Error><RequestId>r</RequestId></ErrorResponse>`,
          );
        return;
      }
      const members = Object.entries(outputs)
        .map(
          ([key, value]) =>
            `<member><OutputKey>${key}</OutputKey><OutputValue>${value}</OutputValue></member>`,
        )
        .join('');
      response
        .writeHead(200)
        .end(
          `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member><StackName>${stackName}</StackName><StackStatus>CREATE_COMPLETE</StackStatus><CreationTime>2026-11-25T00:00:00Z</CreationTime><Outputs>${members}</Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></DescribeStacksResponse>`,
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
