import type { Mutation, ReferenceChoice } from './hostile-body.js';
import type { KeyRing } from './hostile-oracle.js';
import type { KeyChoice } from './hostile-request.js';
import { escapeUnicode, Members, type Value, writeJson } from './independent-signer.js';
import { maxReferenceLength } from './interface-rules.js';

/**
 * A generated request's choices written out as the wire carries them: the key presented, the
 * reference, what happened to the body after signing, and the padding to a size.
 */

export function presentedKey(choice: KeyChoice, keys: KeyRing): string | undefined {
  const key = keys.current;
  switch (choice.kind) {
    case 'current':
      return key;
    case 'rotated':
      return keys.rotated;
    case 'missing':
      return undefined;
    case 'empty':
      return '';
    case 'upper-case':
      return key.toUpperCase();
    case 'truncated':
      return key.slice(0, -1);
    case 'padded':
      return `${choice.before}${key}${choice.after}`;
    case 'extended': {
      const at = choice.at % (key.length + 1);
      return `${key.slice(0, at)}x${key.slice(at)}`;
    }
    case 'inner-space': {
      const at = 1 + (choice.at % (key.length - 1));
      return `${key.slice(0, at)} ${key.slice(at)}`;
    }
    case 'right-length': {
      const at = choice.at % key.length;
      const replacement = key[at] === '0' ? '1' : '0';
      return `${key.slice(0, at)}${replacement}${key.slice(at + 1)}`;
    }
    case 'wrong':
      return choice.value;
  }
}

export function referenceText(choice: ReferenceChoice, unique: string): string {
  switch (choice.kind) {
    case 'plain':
      return unique;
    case 'unicode':
      return `${unique}-${choice.suffix}`;
    case 'longest':
      return unique.padEnd(maxReferenceLength, '-');
    case 'too-long':
      return unique.padEnd(maxReferenceLength + 1, '-');
    case 'empty':
      return '';
    case 'control':
      return `${unique}${choice.char}`;
  }
}

export function mutate(
  wire: string,
  mutation: Mutation,
  members: Members,
  hash: string,
  signing: { wire: 'escaped' | 'utf8'; escapeCase: 'lower' | 'upper' },
): string {
  const at = (fraction: number) => Math.floor(fraction * wire.length);
  switch (mutation.kind) {
    case 'none':
      return wire;
    case 'pretty':
      return `{\n  ${wire.slice(1, -1)}\n}`;
    case 'flip': {
      const i = at(mutation.at);
      const char = wire[i] === mutation.char ? `${mutation.char}${mutation.char}` : mutation.char;
      return `${wire.slice(0, i)}${char}${wire.slice(i + 1)}`;
    }
    case 'insert': {
      const i = at(mutation.at);
      return `${wire.slice(0, i)}${mutation.char}${wire.slice(i)}`;
    }
    case 'delete': {
      const i = at(mutation.at);
      return `${wire.slice(0, i)}${wire.slice(i + 1)}`;
    }
    case 'truncate':
      return wire.slice(0, at(mutation.at));
    case 'change-member': {
      // Content changed after signing, the old hash kept (unless the hash itself is replaced).
      const changed = members.get('hash') === undefined ? members : members.with('hash', hash);
      const entries = changed.entries.map(([name, value]): [string, Value] => [
        name,
        name === mutation.name ? mutation.value : value,
      ]);
      const text = writeJson(new Members(entries));
      return signing.wire === 'escaped' ? escapeUnicode(text, signing.escapeCase) : text;
    }
  }
}

export function padded(text: string, size: number): string {
  const missing = size - Buffer.byteLength(text, 'utf8');
  if (missing <= 0) return text;
  return text.endsWith('}')
    ? `${text.slice(0, -1)}${' '.repeat(missing)}}`
    : `${text}${' '.repeat(missing)}`;
}
