/**
 * Which chart version a `targetRevision` means, as Argo CD reads it for a Helm repository source: an exact version
 * when one is published under that name, else a semver constraint (`17.x`, `^1.2`, `>=1.0.0 <2.0.0`, Helm's comma
 * form `>= 1.2, < 3`; `*` or empty: the latest) answered by the highest matching version, pre-releases only when the
 * constraint names one (Masterminds semver, npm `semver`).
 */
import semver from 'semver';
import { BotError } from '../../domain/index.js';

/**
 * @throws BotError('revision_not_found') naming the chart, the constraint and the newest published versions.
 */
export function pickChartVersion(
  chart: string,
  where: string,
  wanted: string | undefined,
  versions: readonly string[],
): string {
  const target = (wanted ?? '').trim();
  if (target !== '' && versions.includes(target)) return target;
  const range = target === '' ? '*' : target.replaceAll(',', ' ');
  const valid = versions.filter((v) => semver.valid(v, { loose: true }) !== null);
  const best =
    semver.validRange(range, { loose: true }) === null
      ? null
      : semver.maxSatisfying(valid, range, { loose: true });
  if (best !== null) return best;
  const newest = [...valid].sort((a, b) => semver.rcompare(a, b, { loose: true })).slice(0, 5);
  const available = newest.length === 0 ? 'none is published' : `newest: ${newest.join(', ')}`;
  throw new BotError(
    'revision_not_found',
    `chart ${chart} ${target === '' ? '' : `version ${target} `}not found in ${where} (${available}); set targetRevision to a published version or a semver range`,
  );
}
