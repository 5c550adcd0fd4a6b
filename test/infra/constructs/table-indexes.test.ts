import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { TransactionsTable } from '../../../infra/constructs/transactions-table.js';
import {
  decimal,
  type FieldDeclarations,
  text,
  transactionFields,
} from '../../../lambda/callback/transaction-fields.js';
import {
  indexNamesOf,
  type ListIndexVersions,
  listIndexVersions,
  type SearchIndexName,
  searchIndexNames,
  transactionsTableOf,
} from '../../../lambda/storage/table-definition.js';
import { feeFields } from '../../support/fee-fields.js';

/**
 * A deployed state: the declaration, the list indexes the table holds under it, and its search
 * indexes (@default all).
 */
interface State {
  readonly fields: FieldDeclarations;
  readonly versions: ListIndexVersions;
  readonly search?: readonly SearchIndexName[];
}

/** The table's GSIs as CloudFormation sees them, by name, each as its template JSON. */
function synthesizedIndexes({ fields, versions, search }: State): Map<string, string> {
  const stack = new Stack(new App(), 'Indexes');
  new TransactionsTable(stack, 'Transactions', {
    definition: transactionsTableOf(fields, versions, search),
  });
  const [table] = Object.values(Template.fromStack(stack).findResources('AWS::DynamoDB::Table'));
  const indexes = (table?.Properties?.GlobalSecondaryIndexes ?? []) as { IndexName: string }[];
  return new Map(indexes.map((index) => [index.IndexName, JSON.stringify(index)]));
}

/**
 * GSI creations plus deletions CloudFormation makes to go from one template to the next. An
 * index whose key or projection changed under the same name counts twice: DynamoDB rebuilds it.
 */
function indexChanges(before: State, after: State): number {
  const [old, next] = [synthesizedIndexes(before), synthesizedIndexes(after)];
  const created = [...next.keys()].filter((name) => !old.has(name)).length;
  const deleted = [...old.keys()].filter((name) => !next.has(name)).length;
  const rebuilt = [...next].filter(([name, json]) => old.has(name) && old.get(name) !== json);
  return created + deleted + 2 * rebuilt.length;
}

const product: State = { fields: transactionFields, versions: listIndexVersions };
const v1 = { byUser: [1], byTime: [1] };

/** Fixture fields in version 2, as docs/design.md's "Adding a field" declares them. */
const plainFields = {
  ...transactionFields,
  note: text({ required: false, fingerprinted: false, since: 2, rule: 'string' }),
} as const satisfies FieldDeclarations;
const fingerprintedFields = {
  ...transactionFields,
  tax: decimal({ since: 2, rule: 'non-negative decimal' }),
} as const satisfies FieldDeclarations;
// A second listed field on top of the fixture's `fee` (version 2): the path from a staged state.
const laterFields = {
  ...feeFields,
  channel: text({ required: false, listed: 'channel', since: 3, rule: 'string' }),
} as const satisfies FieldDeclarations;

/** The staged path for a listed field of version `next`, from list indexes on `previous`. */
function listedFieldPath(fields: FieldDeclarations, previous: number, next: number) {
  return [
    {
      step: 'declare the field, add its version to byUser',
      state: { fields, versions: { byUser: [previous, next], byTime: [previous] } },
    },
    {
      step: 'add it to byTime',
      state: { fields, versions: { byUser: [previous, next], byTime: [previous, next] } },
    },
    {
      step: 'take the old version off byUser',
      state: { fields, versions: { byUser: [next], byTime: [previous, next] } },
    },
    {
      step: 'take the old version off byTime',
      state: { fields, versions: { byUser: [next], byTime: [next] } },
    },
  ];
}

describe('changing the declaration, one index per stack update', () => {
  it('starts from the product as deployed: list indexes on version 1', () => {
    expect(product.versions).toEqual(v1);
  });

  it.each([
    ['a plain field', plainFields],
    ['a fingerprinted field', fingerprintedFields],
  ])('adding %s changes no index', (_name, fields) => {
    expect(indexChanges(product, { fields, versions: v1 })).toBe(0);
  });

  describe.each([
    ['the first listed field (version 2)', product, feeFields, 1, 2],
    [
      'a second listed field (version 3)',
      { fields: feeFields, versions: { byUser: [2], byTime: [2] } },
      laterFields,
      2,
      3,
    ],
  ] as const)('adding %s', (_name, start, fields, previous, next) => {
    const path = listedFieldPath(fields, previous, next);
    const states = [start, ...path.map(({ state }) => state)];

    it.each(path.map(({ step }, i) => [step, i] as const))(
      'step "%s" creates or deletes exactly one index',
      (_step, i) => {
        expect(indexChanges(states[i] as State, states[i + 1] as State)).toBe(1);
      },
    );

    it('ends where a table built from scratch on the new declaration is', () => {
      const end = states.at(-1) as State;
      expect(synthesizedIndexes(end)).toEqual(
        synthesizedIndexes({ fields, versions: { byUser: [next], byTime: [next] } }),
      );
      expect([...synthesizedIndexes(end).keys()]).toEqual([
        `byUserV${next}`,
        `byTimeV${next}`,
        'byConflictOf',
        ...searchIndexNames,
      ]);
    });

    it('reads, at every step, only indexes the step before already had', () => {
      for (const [i, state] of states.slice(1).entries()) {
        const before = synthesizedIndexes(states[i] as State);
        const read = indexNamesOf(state.fields, state.versions);
        expect(synthesizedIndexes(state).has(read.byUser)).toBe(true);
        expect(before.has(read.byUser) && before.has(read.byTime)).toBe(true);
      }
    });
  });

  it('would rename both list indexes at once without the staged path (the measure can fail)', () => {
    const direct = { fields: feeFields, versions: { byUser: [2], byTime: [2] } };
    expect(indexChanges(product, direct)).toBe(4);
  });
});

describe('adding search to a stack deployed without it, one index per stack update', () => {
  const before: State = { ...product, search: [] };
  const steps: [string, State][] = [
    ['-c searchIndexes=byReference', { ...product, search: ['byReference'] }],
    ['the default, both', product],
  ];

  it.each(steps.map(([step], i) => [step, i] as const))(
    'deploy "%s" creates exactly one index',
    (_step, i) => {
      const from = i === 0 ? before : (steps[i - 1]?.[1] as State);
      expect(indexChanges(from, steps[i]?.[1] as State)).toBe(1);
    },
  );

  it('would create both at once without the first step (the measure can fail)', () => {
    expect(indexChanges(before, product)).toBe(2);
  });

  it('keys both on keys only, so no field declaration ever rebuilds them', () => {
    for (const fields of [transactionFields, feeFields, laterFields]) {
      const indexes = synthesizedIndexes({ fields, versions: v1 });
      expect(JSON.parse(indexes.get('byReference') as string)).toMatchObject({
        KeySchema: [
          { AttributeName: 'timeShard', KeyType: 'HASH' },
          { AttributeName: 'reference', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      });
      expect(JSON.parse(indexes.get('byGatewayId') as string)).toMatchObject({
        KeySchema: [
          { AttributeName: 'id', KeyType: 'HASH' },
          { AttributeName: 'receivedAt', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      });
    }
  });
});
