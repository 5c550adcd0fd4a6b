import type { GatewayTransaction } from '../shared/gateway-callback.js';
import type { Random } from '../shared/seeded-random.js';

/**
 * Callbacks that look like a Turkish payment gateway's traffic: mostly TRY, Turkish names with
 * ç ğ ı İ ö ş ü, some European, Greek and Japanese names (one with a character beyond U+FFFF,
 * which the hash escapes as a surrogate pair), an apostrophe and a quote here and there, a tenth
 * of the ids beyond 2^53, and users who come back for several transactions.
 */

interface NamePool {
  readonly first: readonly string[];
  readonly last: readonly string[];
}

const turkish: NamePool = {
  first: [
    'Çağrı',
    'Ayşe',
    'Gülşen',
    'İlkay',
    'Şükrü',
    'Ömer',
    'Ümit',
    'Işıl',
    'Doğan',
    'Elif',
    'Barış',
    'Özge',
    'Mehmet',
    'Zeynep',
  ],
  last: [
    'Öztürk',
    'Yılmaz',
    'Kaya',
    'Şahin',
    'Çelik',
    'Aydın',
    'Güneş',
    'Karakuş',
    'Koç',
    'Aksoy',
    'Doğru',
    'Ünal',
  ],
};
const european: NamePool = {
  first: [
    'Jürgen',
    'Zoë',
    'François',
    'Łukasz',
    'Małgorzata',
    'José',
    'Íñigo',
    'Søren',
    'Ana',
    'Grégoire',
  ],
  last: ['Müller', 'Lefèvre', 'Wójcik', 'Muñoz', 'Ødegård', 'Nuñez', 'Schröder', 'Dvořák'],
};
const english: NamePool = {
  first: ['John', 'Mary', 'Aisha', 'Liam', 'Sophie'],
  last: ["O'Brien", 'Smith', 'Taylor', 'Patel', 'Jones'],
};
const greek: NamePool = { first: ['Νίκος', 'Ελένη'], last: ['Παπαδόπουλος', 'Οικονόμου'] };
/** 𠮷 (U+20BB7) lies beyond U+FFFF: the hashed text carries it as a surrogate pair. */
const japanese: NamePool = { first: ['花子', '太郎'], last: ['𠮷田', '山本'] };
const russian: NamePool = { first: ['Дмитрий', 'Анна'], last: ['Иванов', 'Соколова'] };

const confirmMessages = ['', '', '', 'Ödeme onaylandı', 'Approved', 'İşlem başarılı'];
const rejectMessages = [
  'Yetersiz bakiye',
  'Hesap doğrulanamadı',
  'Insufficient funds',
  'Card declined by issuer ("do not honour")',
  'Günlük limit aşıldı',
];

interface User {
  readonly username: string;
  readonly firstName: string;
  readonly lastName: string;
}

export interface TransactionGenerator {
  next(): GatewayTransaction;
}

export function transactionGenerator(random: Random, expectedCount: number): TransactionGenerator {
  // Few enough users that most have several transactions, as `query list --username` shows.
  const users = Array.from({ length: Math.max(5, Math.ceil(expectedCount / 8)) }, () =>
    user(random),
  );
  let nextId = BigInt(random.int(1_000_000, 90_000_000));

  return {
    next() {
      const person = random.pick(users);
      const type = random.weighted([
        ['Deposit', 6],
        ['Withdrawal', 4],
      ] as const);
      const status = random.weighted([
        ['Confirm', 17],
        ['Reject', 3],
      ] as const);
      nextId += BigInt(random.int(1, 7));
      return {
        // A tenth from a gateway shard that hands out 19-digit ids, beyond a double's exact range.
        id: random.chance(0.1) ? `9${random.digits(18)}` : nextId.toString(),
        ...person,
        amount: amount(random),
        currency: random.weighted([
          ['TRY', 11],
          ['USD', 4],
          ['EUR', 3],
          ['GBP', 2],
        ] as const),
        type,
        status,
        message: random.pick(status === 'Confirm' ? confirmMessages : rejectMessages),
        reference: uuid(random),
      };
    },
  };
}

function user(random: Random): User {
  const pool = random.weighted([
    [turkish, 55],
    [european, 25],
    [english, 10],
    [greek, 4],
    [japanese, 4],
    [russian, 2],
  ] as const);
  const firstName = random.pick(pool.first);
  const lastName = random.pick(pool.last);
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
  const hex = random.hex(32).split('');
  hex[12] = '4';
  hex[16] = '89ab'[random.int(0, 3)] as string;
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
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
