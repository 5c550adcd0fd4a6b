/**
 * A static check for comparisons of secrets that can leak through timing: `===` and friends,
 * `Buffer#equals`, `Buffer.compare`, `includes`/`indexOf`, or a `Map`/`Set` lookup keyed by a
 * key or hash. Operands are recognised by name (a key, a hash, a digest, what was presented or
 * received); comparing one with a literal (`hash === ''`) or its type (`typeof hash`) says nothing
 * about its value and is allowed.
 */
export interface Finding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly why: string;
}

/** The last name of an operand like `delivery.key.value` that marks it as secret. */
const secretName =
  /^(?:key|keys|apiKey|value|presented|hash|receivedHash|received|expected|digest|secret|secrets|candidate|candidates)$/;
const literal = /^(?:undefined|null|true|false|-?\d[\w.]*|0x[0-9a-fA-F]+|'[^']*'|"[^"]*"|`[^`]*`)$/;
/** A literal, or a name chain with property access and empty calls: `a.b?.c[0].d()`. */
const operand = /'[^']*'|"[^"]*"|`[^`]*`|(?:[\w$.?!\][]|\(\))+/;
const comparison = /(!==|===|!=|==)/g;
const lookups =
  /([\w$.]+)\.(includes|indexOf|lastIndexOf|startsWith|endsWith|equals|localeCompare|has|get)\(([^)]*)\)/g;

export function findSecretComparisons(file: string, source: string): Finding[] {
  const findings: Finding[] = [];
  const lines = withoutCommentsAndStrings(source).split('\n');
  lines.forEach((text, index) => {
    const report = (why: string) =>
      findings.push({ file, line: index + 1, text: source.split('\n')[index]?.trim() ?? '', why });

    for (const match of text.matchAll(comparison)) {
      const at = match.index ?? 0;
      const before = text.slice(0, at).trimEnd();
      const after = text.slice(at + match[0].length).trimStart();
      const left = before.match(new RegExp(`(typeof\\s+)?(${operand.source})$`));
      const right = after.match(new RegExp(`^(typeof\\s+)?(${operand.source})`));
      const sides = [left, right].map((side) => ({
        typeOf: Boolean(side?.[1]),
        text: side?.[2] ?? '',
      }));
      const [a, b] = sides as [(typeof sides)[number], (typeof sides)[number]];
      const secretSide = [a, b].find((side) => !side.typeOf && isSecret(side.text));
      if (!secretSide) continue;
      const other = secretSide === a ? b : a;
      if (other.typeOf || literal.test(other.text) || isLength(secretSide.text)) continue;
      report(`${match[0]} on ${secretSide.text}`);
    }
    for (const match of text.matchAll(lookups)) {
      const [, receiver = '', method = '', args = ''] = match;
      const secretArgument = args.split(',').some((arg) => isSecret(arg.trim()));
      if (secretArgument || (isSecret(receiver) && !['has', 'get'].includes(method))) {
        report(`${method}() with a secret operand`);
      }
    }
    if (/\bBuffer\.compare\(/.test(text)) report('Buffer.compare is not constant-time');
  });
  return findings;
}

function lastName(expression: string): string {
  const names = expression
    .replace(/\(.*$/, '')
    .split(/[.?!\][]+/)
    .filter(Boolean);
  return names.at(-1) ?? '';
}

function isSecret(expression: string): boolean {
  return secretName.test(lastName(expression));
}

/** `keys.length === 0` compares a count, not a secret. */
function isLength(expression: string): boolean {
  return /\.length$/.test(expression);
}

/**
 * Blanks comments and the contents of string literals (keeping quotes and line breaks), so
 * neither a comment nor a message can look like code. Template literals keep their
 * `${...}` expressions.
 */
export function withoutCommentsAndStrings(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const two = source.slice(i, i + 2);
    const char = source[i] as string;
    if (two === '//') {
      const end = source.indexOf('\n', i);
      i = end === -1 ? source.length : end;
    } else if (two === '/*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (char === "'" || char === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== char && source[j] !== '\n')
        j += source[j] === '\\' ? 2 : 1;
      out += `${char}${' '.repeat(Math.max(0, j - i - 1))}${char}`;
      i = j + 1;
    } else if (char === '`') {
      let j = i + 1;
      out += '`';
      while (j < source.length && source[j] !== '`') {
        if (source[j] === '\\') {
          out += '  ';
          j += 2;
        } else if (source.startsWith('${', j)) {
          const end = source.indexOf('}', j);
          out += source.slice(j, end + 1);
          j = end + 1;
        } else {
          out += source[j] === '\n' ? '\n' : ' ';
          j += 1;
        }
      }
      out += '`';
      i = j + 1;
    } else {
      out += char;
      i += 1;
    }
  }
  return out;
}
