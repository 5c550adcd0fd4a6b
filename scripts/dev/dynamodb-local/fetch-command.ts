/** `npm run dynamodb-local:fetch`: DynamoDB Local into `.cache`, its folder printed (fetch.ts). */
import { commandProgram, runProgram } from '../../cli/command-program.js';
import { fetchDynamoDbLocal, pinned } from './fetch.js';

const program = commandProgram(
  'dynamodb-local:fetch',
  `Downloads DynamoDB Local (${pinned.name}@${pinned.version}, about 57 MB) into .cache once, checked against its pinned integrity, and prints its folder.`,
  { ok: 'DynamoDB Local is in the cache (its folder printed)' },
).action(async () => {
  console.log(await fetchDynamoDbLocal({ log: console.log }));
});
await runProgram(program, 'dynamodb-local:fetch');
