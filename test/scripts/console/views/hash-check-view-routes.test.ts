import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { maxBodyBytes } from '../../../../lambda/http/read-body.js';
import { consoleRoutes } from '../support/console-routes.js';

/**
 * The Hash check's server side, asked of the routes in-process: the form posted without the
 * page's script, and the texts endpoint's refusals. hash-check-view.test.ts checks hashes in
 * Chromium, where the key stays.
 */

// The view reads no table: a client that is never used is enough.
const client = new DynamoDBClient({ region: 'us-east-1' });
afterAll(() => client.destroy());
const routes = consoleRoutes({
  table: { client, tableName: 'unused' },
  refusals: { tableName: 'unused' },
});

const texts = (body: string) =>
  routes.send('/hash-check/texts', {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/plain' },
  });

describe('the hash check, route by route', () => {
  it('asks for JavaScript when the form is posted without the script, and says the key was not sent', async () => {
    const answer = await routes.post('/hash-check', { body: '{}' });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(
      '<p class="notice error" role="alert">The check runs in this page’s script, which did not run: enable JavaScript for this page. Your key was not sent.</p>',
    );
  });

  it('refuses a body larger than the receiver accepts with 413', async () => {
    const answer = await texts('x'.repeat(maxBodyBytes + 1));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toEqual({
      error: `The body is larger than the receiver accepts (${maxBodyBytes} bytes).`,
    });
  });

  it('says why a body cannot be checked, with 400', async () => {
    const cases: [body: string, why: string][] = [
      ['{"amount":', 'the body is not valid JSON: '],
      ['[1,2]', 'the body is not a JSON object.'],
      ['{"hash":7}', 'the body\'s "hash" is not a string.'],
    ];
    for (const [body, why] of cases) {
      const answer = await texts(body);
      expect(answer.status, body).toBe(400);
      expect(JSON.parse(answer.text).error).toContain(`Cannot check this body: ${why}`);
    }
  });
});
