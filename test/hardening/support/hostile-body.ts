import fc from 'fast-check';
import {
  extras,
  noExtras,
  personName,
  rarely,
  validAmount,
  withDuplicate,
} from './hostile-members.js';
import type { Members, Value } from './independent-signer.js';

/**
 * Generated bodies: a transaction (its members, a reference, how it is signed, what happened to
 * it on the way, its size) most of the time, else any JSON, raw bytes, text, deep nesting or junk.
 */

export interface Signing {
  /** Whose key salts the hash, or no hash member, or `"hash":""`. */
  readonly by: 'presented' | 'other-accepted' | 'unknown' | 'none' | 'empty';
  readonly wire: 'escaped' | 'utf8';
  readonly escapeCase: 'lower' | 'upper';
  readonly hashCase: 'lower' | 'upper';
}

export type ReferenceChoice =
  | { readonly kind: 'plain' | 'longest' | 'too-long' | 'empty' }
  | { readonly kind: 'unicode'; readonly suffix: string }
  | { readonly kind: 'control'; readonly char: string };

export type Mutation =
  | { readonly kind: 'none' | 'pretty' }
  | { readonly kind: 'flip' | 'insert'; readonly at: number; readonly char: string }
  | { readonly kind: 'delete' | 'truncate'; readonly at: number }
  | { readonly kind: 'change-member'; readonly name: string; readonly value: Value };

export type BodyChoice =
  | {
      readonly kind: 'transaction';
      /** The members before `reference` and `hash`, in the gateway's order. */
      readonly members: Members;
      readonly extras: Members;
      readonly reference: ReferenceChoice;
      readonly signing: Signing;
      readonly mutation: Mutation;
      /** Pad with spaces before the closing brace to exactly this many bytes. */
      readonly padTo: number | undefined;
    }
  | { readonly kind: 'json'; readonly text: string }
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'nested'; readonly depth: number; readonly open: '[' | '{' }
  | { readonly kind: 'junk'; readonly size: number; readonly char: string };

const limit = 64 * 1024;

const reference: fc.Arbitrary<ReferenceChoice> = fc.oneof(
  { weight: 20, arbitrary: fc.constant({ kind: 'plain' } as const) },
  {
    weight: 3,
    arbitrary: fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 6 })
      .map((suffix) => ({ kind: 'unicode', suffix }) as const),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { kind: 'longest' } as const,
      { kind: 'too-long' } as const,
      { kind: 'empty' } as const,
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('\u0000', '\n', '\u001f', '\u007f')
      .map((char) => ({ kind: 'control', char }) as const),
  },
);

const signing = (mostly: Signing['by'][]): fc.Arbitrary<Signing> =>
  fc.record({
    by: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...mostly) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('other-accepted', 'unknown', 'none', 'empty') as fc.Arbitrary<
          Signing['by']
        >,
      },
    ),
    wire: fc.constantFrom('escaped', 'utf8'),
    escapeCase: fc.constantFrom('lower', 'upper'),
    hashCase: fc.oneof(
      { weight: 5, arbitrary: fc.constant('lower' as const) },
      { weight: 1, arbitrary: fc.constant('upper' as const) },
    ),
  });

const oneChar = fc.oneof(
  fc.constantFrom('"', '\\', '{', '}', ',', ':', ' ', '0', 'a', 'A', '\u0000', 'ç'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 20, arbitrary: fc.constant({ kind: 'none' } as const) },
  { weight: 2, arbitrary: fc.constant({ kind: 'pretty' } as const) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('flip', 'insert'),
      at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      char: oneChar,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom('delete', 'truncate'),
      at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.record({
        kind: fc.constant('change-member'),
        name: fc.constant('amount'),
        value: validAmount,
      }),
      fc.record({
        kind: fc.constant('change-member'),
        name: fc.constant('firstName'),
        value: personName,
      }),
      fc.record({
        kind: fc.constant('change-member'),
        name: fc.constant('hash'),
        value: fc.string({
          unit: fc.constantFrom(...'0123456789abcdefABCDEF'),
          minLength: 63,
          maxLength: 65,
        }),
      }),
    ),
  },
) as fc.Arbitrary<Mutation>;

/** Sizes on both sides of the 64 KiB limit, most of them within a few bytes of it. */
const sizeNearLimit = fc.oneof(
  fc.integer({ min: limit - 3, max: limit + 3 }),
  fc.constantFrom(limit - 1000, limit + 1000, 2 * limit),
);

const transactionBody = (options: { signedBy: Signing['by'][] }) =>
  fc.record({
    kind: fc.constant('transaction' as const),
    members: withDuplicate,
    extras: fc.oneof({ weight: 3, arbitrary: noExtras }, { weight: 1, arbitrary: extras }),
    reference,
    signing: signing(options.signedBy),
    mutation,
    padTo: rarely(sizeNearLimit, 12),
  });

const otherBodies: fc.Arbitrary<BodyChoice>[] = [
  fc
    .jsonValue({ maxDepth: 4 })
    .map((value) => ({ kind: 'json', text: JSON.stringify(value) }) as const),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ kind: 'bytes', bytes }) as const),
  fc.string({ unit: 'binary', maxLength: 200 }).map((text) => ({ kind: 'text', text }) as const),
  fc.record({
    kind: fc.constant('nested' as const),
    depth: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1000, max: 40_000 })),
    open: fc.constantFrom('[' as const, '{' as const),
  }),
  fc.record({
    kind: fc.constant('junk' as const),
    size: sizeNearLimit,
    char: fc.constantFrom(' ', 'x', '[', '"', '0', '\u00e7'),
  }),
];

/**
 * A transaction most of the time, else now and then one of the other bodies; `signedBy` sets
 * which signings dominate (rare ones always appear).
 */
export function hostileBody(
  signedBy: Signing['by'][],
  otherBodiesToo: boolean,
): fc.Arbitrary<BodyChoice> {
  if (!otherBodiesToo) return transactionBody({ signedBy });
  return fc.oneof(
    { weight: 10, arbitrary: transactionBody({ signedBy }) },
    ...otherBodies.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}
