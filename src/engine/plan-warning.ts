/**
 * PlanWarning — a place where Argo CD silently falls back (an unparsable wave, an unknown hook type) and
 * wavesync does the same but tells the user. `line` is 1-based; `file` is the manifest the object came from.
 */
export interface PlanWarning {
  file: string;
  line: number;
  message: string;
}

/** Receives one warning message about the object being read; the caller knows its file and line. */
export type Warn = (message: string) => void;

/** A Warn that drops everything: for callers that only need the value (e.g. every sync pass). */
export const ignoreWarnings: Warn = () => {};
