import { seededRandom } from '../../gateway/seeded-random.js';

/**
 * What the proxy does to one DynamoDB request:
 * - `throttle`: answers 400 `ThrottlingException` without reaching the engine;
 * - `server-error`: answers 500 `InternalServerError` without reaching the engine;
 * - `delay`: holds the request longer than the SDK waits, then forwards it (it may land after
 *   the caller gave up, as a slow request to DynamoDB can);
 * - `land-then-drop`: forwards the request, lets the engine apply it, then drops the connection
 *   instead of replying (the write lands, the reply is lost);
 * - `hang`: accepts the request and never answers (a brownout); it never reaches the engine.
 */
export const faultKinds = ['throttle', 'server-error', 'delay', 'land-then-drop', 'hang'] as const;
export type FaultKind = (typeof faultKinds)[number];
/** The faults a plan chooses from unless told: a `hang` is asked for by name. */
export const defaultFaultKinds: readonly FaultKind[] = faultKinds.filter((kind) => kind !== 'hang');
export const decisions = ['pass', ...faultKinds] as const;
export type Decision = (typeof decisions)[number];

/** `fraction` of the requests (of `operations`, if given) get one of `kinds`, equally likely. */
export interface FaultPlanOptions {
  readonly fraction: number;
  readonly seed: number;
  readonly kinds?: readonly FaultKind[];
  readonly operations?: readonly string[];
}

/** Request by request in arrival order: the same seed and order give the same faults. */
export type FaultPlan = (operation: string) => Decision;

export function faultPlan(options: FaultPlanOptions): FaultPlan {
  if (!(options.fraction >= 0 && options.fraction <= 1)) {
    throw new RangeError('fraction must be between 0 and 1');
  }
  const kinds = options.kinds ?? defaultFaultKinds;
  if (kinds.length === 0) throw new RangeError('kinds must name at least one fault');
  const operations = options.operations ? new Set(options.operations) : undefined;
  const random = seededRandom(options.seed);
  return function decide(operation) {
    // Two draws for every request, faulted or not, so one decision never shifts the next.
    const draw = random.next();
    const kind = kinds[random.int(0, kinds.length - 1)] as FaultKind;
    if (operations && !operations.has(operation)) return 'pass';
    return draw < options.fraction ? kind : 'pass';
  };
}
