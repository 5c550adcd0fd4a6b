import {
  type FieldDeclaration,
  type FieldDeclarations,
  type FieldName,
  transactionFields,
} from '../../lambda/callback/transaction-fields.js';
import type { GatewayTransaction } from './gateway-callback.js';
import type { Random } from './seeded-random.js';

/** First names, then last names, by origin. 𠮷 lies beyond U+FFFF: hashed as a surrogate pair. */
const names = {
  turkish: [
    'Çağrı Ayşe Gülşen İlkay Şükrü Ömer Ümit Işıl Doğan Elif Barış Özge Mehmet Zeynep',
    'Öztürk Yılmaz Kaya Şahin Çelik Aydın Güneş Karakuş Koç Aksoy Doğru Ünal',
  ],
  european: [
    'Jürgen Zoë François Łukasz Małgorzata José Íñigo Søren Ana Grégoire',
    'Müller Lefèvre Wójcik Muñoz Ødegård Nuñez Schröder Dvořák',
  ],
  english: ['John Mary Aisha Liam Sophie', "O'Brien Smith Taylor Patel Jones"],
  greek: ['Νίκος Ελένη', 'Παπαδόπουλος Οικονόμου'],
  japanese: ['花子 太郎', '𠮷田 山本'],
  russian: ['Дмитрий Анна', 'Иванов Соколова'],
} as const;

const confirmMessages = ['', '', '', 'Ödeme onaylandı', 'Approved', 'İşlem başarılı'];
const rejectMessages = [
  'Yetersiz bakiye',
  'Hesap doğrulanamadı',
  'Insufficient funds',
  'Card declined by issuer ("do not honour")',
  'Günlük limit aşıldı',
];

/** What one transaction's samples share: its status, its place in the id sequence, its user. */
interface SampleContext {
  readonly random: Random;
  readonly status: 'Confirm' | 'Reject';
  readonly nextId: bigint;
  /** The transaction's user, picked on first use. */
  readonly user: () => ReturnType<typeof user>;
}

/**
 * How the simulator samples each declared field, called in declaration order (the gateway's).
 * A field the declaration gains fails the build here until it is given a sampler or a
 * deliberate `byKind`.
 */
const samplers = {
  // A tenth from a gateway shard that hands out 19-digit ids, beyond a double's exact range.
  id: ({ random, nextId }) => (random.chance(0.1) ? `9${random.digits(18)}` : nextId.toString()),
  username: ({ user }) => user().username,
  firstName: ({ user }) => user().firstName,
  lastName: ({ user }) => user().lastName,
  amount: ({ random }) => amount(random),
  currency: ({ random }) => random.weighted({ TRY: 11, USD: 4, EUR: 3, GBP: 2 }),
  type: ({ random }) => random.weighted({ Deposit: 6, Withdrawal: 4 }),
  status: ({ status }) => status,
  message: ({ random, status }) =>
    random.pick(status === 'Confirm' ? confirmMessages : rejectMessages),
  reference: ({ random }) => uuid(random),
  // The gateway's signer computes it over the rest (gateway-signer.ts).
  hash: () => undefined,
} satisfies Record<FieldName, (context: SampleContext) => string | undefined>;

/**
 * A field with no sampler of its own (a fixture declaration's new field): a value of its kind,
 * present in half the transactions when it is optional.
 */
export function byKind(field: FieldDeclaration, random: Random): string | undefined {
  if (!field.required && random.chance(0.5)) return undefined;
  switch (field.kind) {
    case 'integer':
      return String(random.int(0, 1_000_000));
    case 'decimal':
      return `${random.int(0, 9_999)}.${String(random.int(0, 99)).padStart(2, '0')}`;
    case 'enumeration':
      return random.pick(field.values ?? ['']);
    case 'text':
      return `sample ${random.digits(6)}`;
  }
}

/**
 * Callbacks that look like a Turkish payment gateway's traffic: mostly TRY, Turkish names with
 * ç ğ ı İ ö ş ü, some European, Greek, Japanese and Russian ones, an apostrophe and a quote here
 * and there, a tenth of the ids beyond 2^53, and users who come back for several transactions.
 * Every field of `fields` (the real declaration unless given) is sampled.
 */
export function generateTransactions(
  random: Random,
  count: number,
  fields: FieldDeclarations = transactionFields,
): GatewayTransaction[] {
  // Few enough users that most have several transactions, as `query list --username` shows.
  const users = Array.from({ length: Math.max(5, Math.ceil(count / 8)) }, () => user(random));
  let nextId = BigInt(random.int(1_000_000, 90_000_000));
  return Array.from({ length: count }, () => {
    const status = random.weighted({ Confirm: 17, Reject: 3 });
    nextId += BigInt(random.int(1, 7));
    let picked: ReturnType<typeof user> | undefined;
    const context: SampleContext = {
      random,
      status,
      nextId,
      user: () => {
        picked ??= random.pick(users);
        return picked;
      },
    };
    const transaction: Record<string, string> = {};
    for (const [name, field] of Object.entries(fields)) {
      const sampler = Object.hasOwn(samplers, name) ? samplers[name as FieldName] : undefined;
      const value = sampler ? sampler(context) : byKind(field, random);
      if (value !== undefined) transaction[name] = value;
    }
    return transaction as GatewayTransaction;
  });
}

function user(random: Random) {
  const origin = random.weighted({
    turkish: 55,
    european: 25,
    english: 10,
    greek: 4,
    japanese: 4,
    russian: 2,
  });
  const firstName = random.pick(names[origin][0].split(' '));
  const lastName = random.pick(names[origin][1].split(' '));
  const handle = `${asciiFold(firstName)}.${asciiFold(lastName)}`;
  const username = handle.length > 2 ? `${handle}${random.int(1, 99)}` : `user${random.digits(7)}`;
  return { username, firstName, lastName };
}

/** Minor units, log-uniform from 10.00 to 50,000.00; now and then with a fraction of a unit. */
function amount(random: Random): string {
  const units = Math.round(10 ** (3 + random.next() * 3.7));
  return random.chance(0.02) ? `${units}.${random.int(1, 9)}5` : String(units);
}

/** A version 4 UUID from the seeded generator, so references repeat with the seed. */
function uuid(random: Random): string {
  const hex = (length: number) => random.digits(length, 16);
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${random.pick([...'89ab'])}${hex(3)}-${hex(12)}`;
}

const folded: Record<string, string> = { ı: 'i', ł: 'l', ø: 'o', ß: 'ss' };

/** `Çağrı` → `cagri`; scripts without a Latin form fold to nothing. */
function asciiFold(name: string): string {
  return name
    .toLowerCase()
    .replace(/[ıłøß]/g, (letter) => folded[letter] ?? '')
    .normalize('NFD')
    .replace(/[^a-z]/g, '');
}
