/**
 * The byte budget of one script call. Every Lua string and string buffer fengari makes is a Uint8Array
 * (`..`, `string.rep`, `table.concat`, `string.gsub`, `string.format`, the strings of `obj`), and their bytes live
 * outside V8's heap, so a worker's heap limit does not bound them: `s = s .. s` forty times asks for a terabyte.
 * meterByteArrays() replaces the global Uint8Array of the thread it runs in by one that charges every new array's
 * length to the running call's budget and throws once the call has made more bytes than allowed, before the
 * array exists. It is installed only in the health-script worker (health-script-worker.ts), before fengari loads,
 * where nothing but fengari makes Uint8Arrays (Node's own code uses the constructors it saved at start-up).
 *
 * The budget is cumulative (bytes made during the call, garbage included), so it also bounds the time a call can
 * spend copying strings. Outside a call (and in a thread without the meter) nothing is charged.
 */

/** Bytes of strings one call may make (Argo CD has no such limit; a health check of a 1.5 MB object needs ~2 MB). */
export const HEALTH_SCRIPT_BYTE_BUDGET = 64 * 2 ** 20;

/** Room left after the first refusal, for the error's own message; beyond it every new array is refused. */
const SLACK = 64 * 2 ** 10;

let remaining = Number.POSITIVE_INFINITY;
let limitOfCall = Number.POSITIVE_INFINITY;
let exceeded = false;

class ByteBudgetExceeded extends RangeError {
  constructor(limit: number) {
    super(`made more than ${limit / 2 ** 20} MB of strings`);
  }
}

function charge(bytes: number): void {
  if (!(bytes > 0)) return;
  remaining -= bytes;
  if (remaining >= 0) return;
  if (!exceeded) {
    exceeded = true;
    remaining = SLACK;
  }
  throw new ByteBudgetExceeded(limitOfCall);
}

/** Starts a call's budget of `limit` bytes. */
export function startByteBudget(limit: number): void {
  limitOfCall = limit;
  remaining = limit;
  exceeded = false;
}

/** The running call went over its budget. */
export function byteBudgetExceeded(): boolean {
  return exceeded;
}

/** Ends the call's budget; true when the call went over it (even if the script caught the error). */
export function endByteBudget(): boolean {
  const over = exceeded;
  remaining = Number.POSITIVE_INFINITY;
  limitOfCall = Number.POSITIVE_INFINITY;
  exceeded = false;
  return over;
}

let metered = false;

/** Replaces this thread's global Uint8Array by the metered one (once; before fengari is loaded). */
export function meterByteArrays(): void {
  if (metered) return;
  metered = true;
  const Native = Uint8Array;
  const lengthOf = (source: unknown): number =>
    typeof source === 'number'
      ? source
      : source !== null && typeof source === 'object' && !(source instanceof ArrayBuffer)
        ? Number((source as { length?: unknown }).length) || 0
        : 0;
  // A function, not a subclass: typed arrays made from it are plain Uint8Arrays (no species or subclass cost).
  const Metered = function MeteredUint8Array(
    this: unknown,
    source?: unknown,
    offset?: number,
    length?: number,
  ) {
    charge(lengthOf(source));
    if (offset === undefined) return new Native(source as ArrayLike<number>);
    return new Native(source as ArrayBuffer, offset, length);
  } as unknown as Uint8ArrayConstructor;
  Object.defineProperties(Metered, {
    name: { value: 'Uint8Array' },
    prototype: { value: Native.prototype },
    BYTES_PER_ELEMENT: { value: 1 },
    from: {
      value: (source: ArrayLike<number>, ...rest: []) => {
        charge(lengthOf(source));
        return Native.from(source, ...rest);
      },
    },
    of: { value: (...items: number[]) => Native.of(...items) },
  });
  globalThis.Uint8Array = Metered;
}
