/**
 * What one kept refusal may hold, and how many new ones are kept a minute: a caller with a valid
 * key can send anything, so nothing it sends may grow the table without bound. docs/operations.md
 * ("Kept refusals") describes them.
 */

/** The first bytes of a body over the size limit that are kept: enough to see what it was. */
export const keptPartBytes = 8 * 1024;

/**
 * Headers kept of one delivery, and their total size (name + value, UTF-8). A real gateway sends
 * a dozen in well under 2 KB; past either cap the rest are left out and the refusal says so.
 */
export const maxKeptHeaders = 50;
export const maxKeptHeaderBytes = 8 * 1024;

/**
 * The longest `reference` or `id` kept from a refused body: a valid reference is at most 256
 * characters (transaction-schema.ts), so a longer one names no transaction and is left out.
 */
export const maxKeptIdentifierLength = 256;

/**
 * New refusals kept per minute across all instances, unless configured otherwise: two a second,
 * far above what a gateway with an honest mistake refuses at its usual rate, while a flood keeps
 * at most 120 × 66 KB ≈ 8 MB a minute. A repeat of a kept body is only counted and takes no slot.
 */
export const defaultRefusalsKeptPerMinute = 120;
