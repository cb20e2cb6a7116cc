/**
 * Is an object a hook, which hook types does it carry, is it Skip or ignored?
 * Source: gitops-engine `pkg/sync/hook/hook.go`, `pkg/sync/ignore/ignore.go`; spec §1.2.
 *
 * - Hook types come from `argocd.argoproj.io/hook` (comma list, trimmed, de-duplicated, case-sensitive; only
 *   PreSync, Sync, PostSync, SyncFail and Skip count). Only when none of them is recognised, the Helm mapping
 *   of `helm.sh/hook` applies.
 * - Skip: the only hook type is `Skip` → no task at all (never applied, never pruned).
 * - A hook: `argocd.argoproj.io/hook` present (any value) and not Skip; else `helm.sh/hook` present and not
 *   exactly `crd-install`.
 * - Ignored: a hook without any recognised type (e.g. only `PostDelete`, `presync`, Helm `test-success`).
 */
import { Annotations, type HookType, type KubeObject } from '../../domain/index.js';
import { didYouMean } from '../closest-names.js';
import { annotationCsvOf, hasAnnotation } from '../object-annotations.js';
import { ignoreWarnings, type Warn } from '../plan-warning.js';
import { helmHookTypesOf, isHelmHook } from './helm.js';

/** Hook types the engine acts on. PreDelete/PostDelete belong to Application deletion, not to a sync. */
const ENGINE_HOOK_TYPES: readonly string[] = ['PreSync', 'Sync', 'PostSync', 'SyncFail', 'Skip'];
const DELETION_HOOK_TYPES: readonly string[] = ['PreDelete', 'PostDelete'];

/**
 * The recognised hook types of `obj`, in first-seen order. Warns about values Argo CD drops silently
 * (a misspelling such as `presync`), and about `Skip` listed next to other types (then Skip is ignored).
 */
export function hookTypesOf(obj: KubeObject, warn: Warn = ignoreWarnings): HookType[] {
  const types: HookType[] = [];
  const unknown: string[] = [];
  for (const value of annotationCsvOf(obj, Annotations.hook)) {
    if (ENGINE_HOOK_TYPES.includes(value)) types.push(value as HookType);
    else if (!DELETION_HOOK_TYPES.includes(value)) unknown.push(value);
  }
  if (types.length > 1 && types.includes('Skip')) {
    warn(`${Annotations.hook}: Skip is ignored when listed with other hook types`);
  }
  const recognised = types.length > 0 ? types : helmHookTypesOf(obj, warn);
  const dropped = recognised.length === 0 ? ', so this hook is neither applied nor pruned' : '';
  for (const value of unknown) {
    const known = [...ENGINE_HOOK_TYPES, ...DELETION_HOOK_TYPES];
    warn(
      `${Annotations.hook}: unknown hook type "${value}"${didYouMean(value, known)}; Argo CD ignores it${dropped}`,
    );
  }
  return recognised;
}

/** What the hook annotations make of an object, computed once. */
export interface HookTraits {
  /** Recognised hook types (Argo's, else Helm's mapping). */
  types: HookType[];
  /** Only hook type is Skip: no task at all. */
  skip: boolean;
  /** Runs as a hook in its phases. */
  hook: boolean;
  /** A hook with no recognised type: neither applied nor pruned. */
  ignored: boolean;
}

/** Hook types plus the Skip, hook and ignored verdicts of spec §1.2, reading the annotations once. */
export function hookTraitsOf(obj: KubeObject, warn: Warn = ignoreWarnings): HookTraits {
  const types = hookTypesOf(obj, warn);
  const skip = types.length === 1 && types[0] === 'Skip';
  const hook = hasAnnotation(obj, Annotations.hook) ? !skip : isHelmHook(obj);
  return { types, skip, hook, ignored: hook && types.length === 0 };
}

/** True when `Skip` is the one and only hook type: the object gets no task. */
export function isSkip(obj: KubeObject): boolean {
  return hookTraitsOf(obj).skip;
}

/** True for hooks: objects run as hooks in their phases instead of being synced as resources. */
export function isHook(obj: KubeObject): boolean {
  return hookTraitsOf(obj).hook;
}

/** True for hooks without a recognised hook type: Argo CD neither applies nor prunes them. */
export function isIgnored(obj: KubeObject): boolean {
  return hookTraitsOf(obj).ignored;
}
