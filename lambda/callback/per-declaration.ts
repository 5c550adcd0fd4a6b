import { type FieldDeclarations, transactionFields } from './transaction-fields.js';

/**
 * What `build` makes of a declaration of the transaction's fields, made once per declaration:
 * the real one at load (the function needs it on its first request), a test's fixture on its
 * first use, held only as long as the fixture is.
 */
export function perDeclaration<T>(build: (fields: FieldDeclarations) => T) {
  const real = build(transactionFields);
  const others = new WeakMap<FieldDeclarations, T>();
  return (fields: FieldDeclarations = transactionFields): T => {
    if (fields === transactionFields) return real;
    let built = others.get(fields);
    if (built === undefined) {
      built = build(fields);
      others.set(fields, built);
    }
    return built;
  };
}
