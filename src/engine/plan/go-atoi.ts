/**
 * Go `strconv.Atoi` for 64-bit platforms: an optional `+` or `-`, then one or more ASCII digits, within the signed
 * 64-bit range. Anything else (spaces, decimals, exponents, `_`, the empty string) is rejected.
 * Source: Go `strconv/atoi.go`; used by gitops-engine to read `argocd.argoproj.io/sync-wave`.
 */
const ATOI_SYNTAX = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The integer value of `text` as Go's Atoi reads it, or undefined when Atoi would return an error. */
export function goAtoi(text: string): number | undefined {
  if (!ATOI_SYNTAX.test(text)) return undefined;
  if (text.length < 16) return Number(text) + 0; // + 0 turns "-0" into 0
  const big = BigInt(text);
  return big < INT64_MIN || big > INT64_MAX ? undefined : Number(big);
}
