import { execFileSync } from 'node:child_process';
import type { SerializableValue } from '../../lambda/json/json-text.js';

/**
 * Senders whose JSON comes from real serializers run as child processes (Python's `json`, Perl's
 * core JSON::PP, Node's JSON.stringify), not from our code. Each sender does what the senders
 * refused before the escape policies did: hashes the text its serializer writes with one escape
 * setting (`"hash"` set to `""`, key appended), then sends the object, hash filled in, written
 * with another.
 */
export interface RealSender {
  readonly name: string;
  readonly program: string;
  readonly args: readonly string[];
  /** The serializer settings for the hashed text and for the wire body. */
  readonly hashed: unknown;
  readonly wire: unknown;
}

export interface SentCallback {
  /** The text the sender hashed, `"hash":""`. */
  readonly hashedText: string;
  /** The body it sent. */
  readonly body: string;
}

const python = `
import hashlib, json, sys
request = json.loads(sys.stdin.buffer.read().decode('utf-8'))
fields, key = request['fields'], request['key']
hashed = json.dumps({**fields, 'hash': ''}, **request['hashed'])
digest = hashlib.sha256((hashed + key).encode('utf-8')).hexdigest()
body = json.dumps({**fields, 'hash': digest}, **request['wire'])
sys.stdout.buffer.write((hashed + '\\n' + body).encode('utf-8'))
`;

// JSON::PP objects have no member order: canonical sorts the members, as a Perl sender would.
const perl = `
use strict; use warnings;
use JSON::PP; use Digest::SHA qw(sha256_hex); use Encode qw(encode_utf8);
binmode STDIN; binmode STDOUT;
my $request = JSON::PP->new->utf8->decode(do { local $/; <STDIN> });
sub writer { my $json = JSON::PP->new->canonical; $json->$_(1) for @{$_[0]}; $json }
my %fields = %{$request->{fields}};
my $hashed = writer($request->{hashed})->encode({ %fields, hash => '' });
my $digest = sha256_hex(encode_utf8($hashed . $request->{key}));
my $body = writer($request->{wire})->encode({ %fields, hash => $digest });
print encode_utf8($hashed . "\\n" . $body);
`;

// Express's res.json with app.set('json escape', true): JSON.stringify, then < > & as \\u003c
// \\u003e \\u0026 (express/lib/response.js; Express itself is not a dependency here).
const node = `
const { createHash } = require('node:crypto');
const request = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const escapes = { '<': '\\\\u003c', '>': '\\\\u003e', '&': '\\\\u0026' };
const write = (value, setting) => {
  const json = JSON.stringify(value, null, setting.spaces);
  return setting.escape ? json.replace(/[<>&]/g, (c) => escapes[c]) : json;
};
const hashed = write({ ...request.fields, hash: '' }, request.hashed);
const digest = createHash('sha256').update(hashed + request.key, 'utf8').digest('hex');
process.stdout.write(hashed + '\\n' + write({ ...request.fields, hash: digest }, request.wire));
`;

const compact = [',', ':'];
const pythonSender = (name: string, hashed: unknown, wire: unknown): RealSender => ({
  name: `Python json: ${name}`,
  program: 'python3',
  args: ['-c', python],
  hashed,
  wire,
});
const perlSender = (name: string, hashed: string[], wire: string[]): RealSender => ({
  name: `Perl JSON::PP: ${name}`,
  program: 'perl',
  args: ['-e', perl],
  hashed,
  wire,
});
const nodeSender = (name: string, hashed: unknown, wire: unknown): RealSender => ({
  name: `Node JSON.stringify: ${name}`,
  program: process.execPath,
  args: ['-e', node],
  hashed,
  wire,
});

export const realSenders: readonly RealSender[] = [
  pythonSender(
    'hashes ensure_ascii (DEL as \\u007f), sends ensure_ascii=False',
    { ensure_ascii: true, separators: compact },
    { ensure_ascii: false, separators: compact },
  ),
  pythonSender(
    'hashes ensure_ascii=False, sends ensure_ascii',
    { ensure_ascii: false, separators: compact },
    { ensure_ascii: true, separators: compact },
  ),
  pythonSender(
    'default separators ", " ": ", hashes ensure_ascii, sends ensure_ascii=False',
    { ensure_ascii: true },
    { ensure_ascii: false },
  ),
  perlSender(
    'hashes ascii escape_slash (as PHP by default), sends utf8',
    ['ascii', 'escape_slash'],
    [],
  ),
  perlSender('hashes escape_slash, sends ascii', ['escape_slash'], ['ascii']),
  perlSender('hashes utf8, sends ascii escape_slash', [], ['ascii', 'escape_slash']),
  perlSender(
    'hashes ascii, sends escape_slash pretty-printed',
    ['ascii'],
    ['escape_slash', 'pretty'],
  ),
  nodeSender('hashes with Express json escape (< > &), sends plain', { escape: true }, {}),
  nodeSender('hashes plain, sends with Express json escape', {}, { escape: true }),
  nodeSender(
    'hashes with Express json escape, sends plain with 2-space indentation',
    { escape: true },
    { spaces: 2 },
  ),
];

/** Runs the sender's serializer on `fields`; throws if the child fails. */
export function sendFrom(
  sender: RealSender,
  fields: Record<string, SerializableValue>,
  key: string,
): SentCallback {
  const request = JSON.stringify({ fields, key, hashed: sender.hashed, wire: sender.wire });
  const output = execFileSync(sender.program, [...sender.args], {
    input: Buffer.from(request, 'utf8'),
    timeout: 20_000,
  }).toString('utf8');
  const newline = output.indexOf('\n');
  return { hashedText: output.slice(0, newline), body: output.slice(newline + 1) };
}

/**
 * A message holding every character whose escape differs between serializers: `/`, the HTML
 * set, quote and backslash, DEL and other controls, U+2028/U+2029, non-ASCII beyond U+FFFF.
 */
export const everyEscapeClass =
  `Paid <b>R&D</b> for O'Brien via https://pay.example/r?a=1 "ok" \\ +5 \`x\` ` +
  '\x7f\x1f\x0b\t\n\b\f \u2028\u2029 Çağrı 💳 \u0085';
