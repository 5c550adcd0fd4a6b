import { transaction } from '../../support/fixtures.js';

/**
 * A hand-made hostile request with the status docs/callback-interface.md promises for it. The
 * cases, one file per kind of oddity, are listed together in named-cases.ts; they run on a real
 * engine with the default hash mode (`if-present`), through the real handler.
 */
export interface NamedRequest {
  /** Text, or raw bytes (sent base64, as API Gateway sends binary bodies). */
  readonly body: string | Buffer;
  /** Merged over `Content-Type: application/json` and the right `x-api-key`; undefined removes. */
  readonly headers?: Record<string, string | undefined>;
  readonly base64?: boolean;
}

export interface NamedCase {
  readonly name: string;
  readonly status: number;
  readonly request: (reference: string) => NamedRequest;
  /** For a 204: attribute values the stored item must hold, beyond the raw body. */
  readonly stored?: Record<string, string>;
  /** A known bug on the engines named: the case fails there until the receiver is fixed. */
  readonly knownBugOn?: readonly string[];
}

/** The fixture transaction under `reference`, with `overrides`. */
export const fields = (reference: string, overrides: Parameters<typeof transaction>[0] = {}) =>
  transaction({ reference, ...overrides });
