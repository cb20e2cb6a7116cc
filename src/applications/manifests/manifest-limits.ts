/**
 * Per-Application ceilings on what rendering may produce (wavesync.yaml `defaults.applicationLimits`): the number
 * of objects and the bytes of manifests (YAML files read, or the output of helm/kustomize). An Application over
 * either is refused while it renders — before anything is dry-run or applied, and for `/sync diff` and drift
 * detection alike — with the figure, the limit and the setting that raises it. The defaults fit a worker in 256 MB
 * (BENCHMARKS.md, "Bounded under huge input").
 */
import { BotError } from '../../domain/index.js';

export interface ManifestLimits {
  /** Most objects one Application may render (List items counted one by one). */
  maxObjects: number;
  /** Most bytes of manifests one Application may render. */
  maxManifestBytes: number;
}

export const DEFAULT_MANIFEST_LIMITS: ManifestLimits = {
  maxObjects: 10_000,
  maxManifestBytes: 16 * 1024 * 1024,
};

/** How to fix it, in the message itself: the thread shows the message only. */
const raise = (key: keyof ManifestLimits) =>
  `raise defaults.applicationLimits.${key} in wavesync.yaml, or split the Application`;

/** Counts what one render of `application` produced against `limits`. */
export class ManifestBudget {
  private objects = 0;
  private bytes = 0;

  private readonly application: string;
  private readonly limits: ManifestLimits;

  constructor(application: string, limits: ManifestLimits) {
    this.application = application;
    this.limits = limits;
  }

  /**
   * Adds `bytes` of manifests about to be parsed (`where`: the file or rendered folder).
   * @throws BotError('too_large') when the Application's manifests now exceed maxManifestBytes.
   */
  addBytes(bytes: number, where: string): void {
    this.bytes += bytes;
    if (this.bytes <= this.limits.maxManifestBytes) return;
    throw new BotError(
      'too_large',
      `${this.application}: its manifests are ${formatBytes(this.bytes)} (${where}), more than the ` +
        `limit of ${formatBytes(this.limits.maxManifestBytes)} per Application (nothing was applied): ${raise('maxManifestBytes')}`,
    );
  }

  /** Counts `count` more objects; false once the Application is over maxObjects (count on, keep none). */
  addObjects(count: number): boolean {
    this.objects += count;
    return this.objects <= this.limits.maxObjects;
  }

  /** @throws BotError('too_large') when more objects were counted than maxObjects. */
  check(): void {
    if (this.objects <= this.limits.maxObjects) return;
    throw new BotError(
      'too_large',
      `${this.application}: it renders ${this.objects.toLocaleString('en')} objects, more than the limit of ` +
        `${this.limits.maxObjects.toLocaleString('en')} per Application (nothing was applied): ${raise('maxObjects')}`,
    );
  }
}

/** `4,194,400 bytes (4.0 MiB)`: exact, so a figure just over its limit never reads the same as the limit. */
function formatBytes(bytes: number): string {
  return `${bytes.toLocaleString('en')} bytes (${(bytes / 1024 / 1024).toFixed(1)} MiB)`;
}
