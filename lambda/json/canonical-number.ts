/**
 * One plain form per numeric value, computed from the JSON text with string arithmetic only: a
 * double would round `9007199254740993` and cannot say whether `1.0E7` is an integer. Serializers
 * write the same decimal as `10000000`, `1.0E7`, `1e+7` or `10000000.00`; all become `10000000`.
 *
 * The plain form has no exponent, no sign on zero, no leading zeros and no trailing fraction
 * zeros. Its digit count is every digit written except the lone `0` before the point of a pure
 * fraction: `1e3` (`1000`) has four, `0.05` two. A bound on that count bounds both precision and
 * magnitude, so 38 keeps any value inside what a DynamoDB number holds digit for digit.
 */
export interface CanonicalNumber {
  /** The plain decimal text, e.g. `1050.7`, `0`, `-12`. */
  readonly plain: string;
  readonly negative: boolean;
  /** True when the value has no fraction. */
  readonly integer: boolean;
  /** Digits of {@link plain}, not counting the `0` of `0.…`; 0 for zero. */
  readonly digits: number;
}

/** More digits than any bound checked here: the value is refused before its text is built. */
const maxPlainDigits = 160;

const plainInteger = /^(?:0|[1-9]\d*)$/;
const jsonNumber = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The canonical form of a JSON number's text, or `undefined` when the text is not a JSON number
 * or its plain form would run past {@link maxPlainDigits} digits (`1e400`, `1e-400`), which no
 * bound of this receiver accepts and which must not cost a long string to find out.
 */
export function canonicalNumber(source: string): CanonicalNumber | undefined {
  // The common case, already plain: an integer without sign, fraction or exponent.
  if (plainInteger.test(source)) {
    return source.length > maxPlainDigits
      ? undefined
      : {
          plain: source,
          negative: false,
          integer: true,
          digits: source === '0' ? 0 : source.length,
        };
  }
  const match = jsonNumber.exec(source);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  // value = digits × 10^scale, digits written without leading or trailing zeros.
  let digits = whole + fraction;
  let scale = Number(exponentText) - fraction.length;
  let first = 0;
  while (first < digits.length && digits.charCodeAt(first) === 0x30) first++;
  let end = digits.length;
  while (end > first && digits.charCodeAt(end - 1) === 0x30) end--;
  if (first === end) return { plain: '0', negative: false, integer: true, digits: 0 };
  scale += digits.length - end;
  digits = digits.slice(first, end);

  const leadingFractionZeros = Math.max(0, -scale - digits.length);
  const count = digits.length + Math.max(0, scale) + leadingFractionZeros;
  if (count > maxPlainDigits) return undefined;

  let plain: string;
  if (scale >= 0) plain = digits + '0'.repeat(scale);
  else if (digits.length > -scale) {
    plain = `${digits.slice(0, digits.length + scale)}.${digits.slice(digits.length + scale)}`;
  } else plain = `0.${'0'.repeat(leadingFractionZeros)}${digits}`;
  const negative = sign === '-';
  return {
    plain: negative ? `-${plain}` : plain,
    negative,
    integer: scale >= 0,
    digits: count,
  };
}
