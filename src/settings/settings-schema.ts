/**
 * The wavesync.yaml schema (zod, strict: an unknown key is an error naming its path).
 *
 * ```yaml
 * applications:                       # where Argo CD Application manifests are read from
 *   - directory: applications          # every *.yaml/*.yml/*.json in it (relative to this file)
 *   - file: more/payments.yaml
 *   - git: { repoURL: https://git.example.com/apps.git, revision: main, path: apps }
 *   - cluster: { namespace: argocd }   # Application objects in the cluster (default context)
 * clusters:                            # Application spec.destination → kubeconfig context
 *   - { server: https://kubernetes.default.svc, name: in-cluster, context: kind-dev }
 * kustomize: { versions: { v4.5.7: /usr/local/bin/kustomize-v4.5.7 } }   # spec.source.kustomize.version
 * plugins:                             # Config Management Plugins, as Argo CD's plugin.yaml
 *   - { name: lovely, generate: { command: [sh, -c], args: ["…"] }, discover: { fileName: ./lovely.yaml } }
 * gitCredentials:                      # matched by URL prefix, longest first
 *   - { url: https://git.example.com/, tokenEnv: GIT_TOKEN }
 * helmCredentials:                     # Helm chart repositories and OCI registries, by URL prefix, longest first
 *   - { url: https://charts.example.com/, username: robot, passwordEnv: CHARTS_PASSWORD, caFile: ca.pem }
 * defaults: { healthTimeoutSeconds: 300, gitCacheDir: ~/.cache/wavesync/git, registryRefreshSeconds: 180 }
 *   # driftDetection: { intervalSeconds: 180, enabled: true, channel: C0DEPLOYS }
 *   # reconciliation: { timeoutSeconds: 180, jitterSeconds: 60 }   # argocd-cm timeout.reconciliation(.jitter)
 * webhook:                             # POST /api/webhook (argocd-secret webhook.*); env WAVESYNC_WEBHOOK_* wins
 *   github: { secretEnv: GITHUB_WEBHOOK_SECRET }   # or secretFile:; also gitlab, bitbucket (its UUID), bitbucketServer, gitea
 * environments: {}                     # see environments-schema.ts (approvals)
 * resourceTracking: { method: annotation }   # argocd-cm application.resourceTrackingMethod (and two more keys)
 * promotion: { pipelines: { guestbook: { stages: [guestbook-staging, guestbook-prod] } } }  # promotion-schema.ts
 * ```
 * Extend by adding keys to `SettingsSchema`'s shape (it is a plain `z.strictObject`).
 */
import { z } from 'zod';
import { TRACKING_LABEL, TRACKING_METHODS, type TrackingMethod } from '../domain/index.js';
import { channelId, EnvironmentsSchema } from './environments-schema.js';
import { PromotionSchema } from './promotion-schema.js';
import { parseResourceCustomizations } from './resource-customizations.js';

const nonEmpty = z.string().min(1);

/** Exactly one of the given keys must be set on the object. */
function exactlyOne<T extends Record<string, unknown>>(keys: readonly (keyof T & string)[]) {
  return (value: T, ctx: z.RefinementCtx) => {
    const present = keys.filter((k) => value[k] !== undefined);
    if (present.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          present.length === 0
            ? `needs one of ${keys.join(', ')}`
            : `takes only one of ${keys.join(', ')} (found ${present.join(', ')})`,
      });
    }
  };
}

const GitApplicationSourceSchema = z.strictObject({
  repoURL: nonEmpty,
  /** Branch, tag, commit SHA or HEAD. */
  revision: nonEmpty.default('HEAD'),
  /** Directory inside the repository holding the Application manifests. */
  path: nonEmpty.default('.'),
});

const ClusterApplicationSourceSchema = z.strictObject({
  /** Namespace holding the Application objects (Argo CD's default `argocd`). */
  namespace: nonEmpty.default('argocd'),
  /** kubeconfig context to read them from; default: the current context. */
  context: nonEmpty.optional(),
});

/** One entry of `applications:`; exactly one of directory, file, git, cluster. */
const ApplicationSourceEntrySchema = z
  .strictObject({
    directory: nonEmpty.optional(),
    file: nonEmpty.optional(),
    git: GitApplicationSourceSchema.optional(),
    cluster: ClusterApplicationSourceSchema.optional(),
  })
  .superRefine(exactlyOne(['directory', 'file', 'git', 'cluster']));

/** One entry of `clusters:` — an Argo CD destination (server URL and/or name) mapped to a kubeconfig context. */
const ClusterSchema = z
  .strictObject({
    server: nonEmpty.optional(),
    name: nonEmpty.optional(),
    context: nonEmpty,
    /** kubeconfig file for this context; default: KUBECONFIG / ~/.kube/config. */
    kubeconfig: nonEmpty.optional(),
    /** Labels of the cluster, as on Argo CD's cluster Secret: what ApplicationSet cluster generators select on. */
    labels: z.record(z.string(), z.string()).optional(),
    /** Annotations of the cluster (ApplicationSet cluster generators' `metadata.annotations`). */
    annotations: z.record(z.string(), z.string()).optional(),
  })
  .refine((c) => c.server !== undefined || c.name !== undefined, { message: 'needs server or name' });

/** Credentials for git repositories whose URL starts with `url`. Secrets are referenced, never inline. */
const GitCredentialSchema = z
  .strictObject({
    url: nonEmpty,
    /** User name sent with the token (HTTP Basic); GitHub and GitLab accept `x-access-token`/`oauth2`. */
    username: nonEmpty.default('x-access-token'),
    /** Name of the environment variable holding the token. */
    tokenEnv: nonEmpty.optional(),
    /** File holding the token (trailing whitespace trimmed). */
    tokenFile: nonEmpty.optional(),
    /** Private key for ssh:// and git@ URLs. */
    sshKeyFile: nonEmpty.optional(),
  })
  .superRefine(exactlyOne(['tokenEnv', 'tokenFile', 'sshKeyFile']));

/**
 * Credentials and TLS for Helm chart repositories (`https://…`) and OCI registries (`oci://…`) whose URL starts
 * with `url` — what Argo CD keeps in a repository Secret of type helm. Secrets are referenced, never inline.
 */
const HelmCredentialSchema = z
  .strictObject({
    url: nonEmpty,
    /** HTTP Basic user (also what an OCI registry's token service is asked with). */
    username: nonEmpty.optional(),
    /** Name of the environment variable holding the password. */
    passwordEnv: nonEmpty.optional(),
    /** File holding the password (trailing whitespace trimmed). */
    passwordFile: nonEmpty.optional(),
    /** PEM CA certificate(s) the server's certificate must chain to (in addition to the system's). */
    caFile: nonEmpty.optional(),
    /** PEM TLS client certificate and its key (Argo CD tlsClientCertData / tlsClientCertKey). */
    certFile: nonEmpty.optional(),
    keyFile: nonEmpty.optional(),
    /** Skip verifying the server certificate (Argo CD `insecure`). */
    insecure: z.boolean().default(false),
    /** Speak plain HTTP to an OCI registry (Argo CD `insecureOCIForceHttp`). */
    insecureOCIForceHttp: z.boolean().default(false),
  })
  .refine(
    (c) => (c.username === undefined) === (c.passwordEnv === undefined && c.passwordFile === undefined),
    {
      message: 'username needs passwordEnv or passwordFile, and they need username',
    },
  )
  .refine((c) => !(c.passwordEnv !== undefined && c.passwordFile !== undefined), {
    message: 'takes only one of passwordEnv, passwordFile',
  })
  .refine((c) => (c.certFile === undefined) === (c.keyFile === undefined), {
    message: 'certFile and keyFile go together',
  });

const DefaultsSchema = z.strictObject({
  /** How long a wave may wait for its resources to become Healthy, in seconds. */
  healthTimeoutSeconds: z.number().int().positive().default(300),
  /**
   * Applies (and dry runs, and prunes) in flight at once within one kind run of a wave; runs of different kinds
   * still go one after another. Default 32 (see EngineOptions.applyConcurrency).
   */
  applyConcurrency: z.number().int().min(1).max(256).default(32),
  /**
   * The start grace, in seconds: a hook, or a resource a wave waits on, whose Pod cannot start because it waits
   * for an object this sync does not create (or a hook Pod that cannot pull its image) fails after this long.
   * Default 60 (EngineOptions.hookStartGraceMs).
   */
  startGraceSeconds: z.number().int().positive().default(60),
  /** Helm charts downloaded from chart repositories and OCI registries, by digest (`~` expands to home). */
  helmCacheDir: nonEmpty.default('~/.cache/wavesync/helm'),
  /** Clones and checkouts of git sources (`~` expands to the home directory). */
  gitCacheDir: nonEmpty.default('~/.cache/wavesync/git'),
  /** Timeout of one git, helm or kustomize process, in seconds. */
  commandTimeoutSeconds: z.number().int().positive().default(120),
  /**
   * Timeout of a request to a git remote (`ls-remote`, which starts every resolution of a git source), in seconds
   * (Argo CD's `ARGOCD_GIT_REQUEST_TIMEOUT`, default 15): a repository that does not answer ends the operation in
   * Error after this long.
   */
  gitRequestTimeoutSeconds: z.number().int().positive().default(15),
  /**
   * How often every process reads `applications:` again (git sources fetched, cluster Applications listed), in
   * seconds; 0 turns it off. Argo CD refreshes every 180 s. A name `/sync` does not know triggers a read at once.
   */
  registryRefreshSeconds: z.number().int().nonnegative().default(180),
  /**
   * How many finished operations are kept per Application in Redis (`/sync history`, `/sync rollback <app> ID`);
   * the oldest are dropped beyond it. Argo CD's `spec.revisionHistoryLimit` defaults to 10; wavesync keeps 50.
   */
  historyLimit: z.number().int().min(1).max(1000).default(50),
  /**
   * Ceilings per Application on what rendering produces: objects (List items one by one) and bytes of manifests
   * (YAML files, or helm/kustomize output). Over either, `/sync`, `/sync diff` and drift detection refuse the
   * Application while rendering — before anything is applied — naming the figure and this setting. The defaults
   * (10,000 objects, 16 MiB) keep a worker within 256 MB (BENCHMARKS.md, "Bounded under huge input").
   */
  applicationLimits: z
    .strictObject({
      maxObjects: z.number().int().positive().default(10_000),
      maxManifestBytes: z
        .number()
        .int()
        .positive()
        .default(16 * 1024 * 1024),
    })
    .prefault({}),
  appOfApps: z
    .strictObject({
      /** Sync children one by one after the parent, each waiting for the previous child's health. */
      gateOnChildHealth: z.boolean().default(true),
    })
    .prefault({}),
  driftDetection: z
    .strictObject({
      /** How often Applications with syncPolicy.automated are compared with the cluster, in seconds (Argo CD: 180). */
      intervalSeconds: z.number().int().positive().default(180),
      /** Set false to turn drift detection off in this installation. */
      enabled: z.boolean().default(true),
      /**
       * Channel for drift notices of Applications without a `wavesync.io/channel` annotation and without an
       * environment `notifications.channel`; without any, drift is only logged (and self-healed where allowed).
       */
      channel: channelId.optional(),
    })
    .prefault({}),
  /**
   * How often each Application's targetRevision is resolved again (one `git ls-remote` per repository, a Helm
   * index read per chart), Argo CD's argocd-cm `timeout.reconciliation` (180 s; 0 turns polling off: then only
   * webhooks move Applications) and `timeout.reconciliation.jitter` (each poll waits up to this much longer, at
   * random, so replicas and installations do not hit a git host at the same second).
   */
  reconciliation: z
    .strictObject({
      timeoutSeconds: z.number().int().nonnegative().default(180),
      jitterSeconds: z.number().int().nonnegative().default(60),
    })
    .prefault({}),
});

/** Where a webhook secret is: an environment variable or a file (never inline, like every secret here). */
const webhookSecret = z
  .strictObject({ secretEnv: nonEmpty.optional(), secretFile: nonEmpty.optional() })
  .refine((w) => (w.secretEnv === undefined) !== (w.secretFile === undefined), {
    message: 'takes one of secretEnv, secretFile',
  });

/**
 * Shared secrets of `POST /api/webhook`, per git host (argocd-secret's `webhook.github.secret`,
 * `webhook.gitlab.secret`, `webhook.bitbucket.uuid`, `webhook.bitbucketserver.secret`, `webhook.gogs.secret`), each
 * named by `secretEnv` or `secretFile` (Bitbucket Cloud's is the webhook's UUID). The environment variables
 * WAVESYNC_WEBHOOK_GITHUB_SECRET, …_GITLAB_SECRET, …_BITBUCKET_UUID, …_BITBUCKET_SERVER_SECRET and
 * …_GITEA_SECRET take precedence. A host without one has its webhooks refused.
 */
const WebhookSettingsSchema = z.strictObject({
  github: webhookSecret.optional(),
  gitlab: webhookSecret.optional(),
  bitbucket: webhookSecret.optional(),
  bitbucketServer: webhookSecret.optional(),
  /** Gitea and Gogs (both sign with the same HMAC). */
  gitea: webhookSecret.optional(),
});

/**
 * How objects are marked as an Application's — the argocd-cm keys of an Argo CD on the same cluster, so both
 * agree on who owns what (docs/applications.md, "Resource tracking").
 */
const ResourceTrackingSchema = z.strictObject({
  /** argocd-cm `application.resourceTrackingMethod`: annotation (Argo CD 3.x default), label, annotation+label. */
  method: z.enum(TRACKING_METHODS as [TrackingMethod, ...TrackingMethod[]]).default('annotation'),
  /** argocd-cm `application.instanceLabelKey`: the label of `label` and `annotation+label`. */
  labelKey: nonEmpty.default(TRACKING_LABEL),
  /** argocd-cm `installationID`: written next to the tracking id; other installations' ids are not ours. */
  installationID: nonEmpty.optional(),
});

/**
 * Health as Argo CD computes it for kinds wavesync has no check of its own for: Lua health scripts
 * (docs/health-scripts.md).
 */
export const HealthSettingsSchema = z.strictObject({
  /**
   * Argo CD's built-in health scripts: its `resource_customizations` folder (`<group>/<Kind>/health.lua`), as a
   * local copy (`directory`, relative to this file) or a git source (`repoURL`, `targetRevision`, `path`; only
   * that folder is fetched). Without it, only `argocdCm` overrides are scripted.
   */
  builtInScripts: z
    .strictObject({
      /** A local copy of the folder, relative to this file. */
      directory: nonEmpty.optional(),
      /** Or a git source: Argo CD's repository (or a fork) at a release tag; only `path` is fetched. */
      repoURL: nonEmpty.optional(),
      /** Branch, tag or full SHA; default HEAD. */
      targetRevision: nonEmpty.optional(),
      /** The folder in the repository, e.g. resource_customizations. */
      path: nonEmpty.optional(),
    })
    .superRefine((source, ctx) => {
      const git = ['repoURL', 'targetRevision', 'path'].filter((k) => source[k as keyof typeof source]);
      if (source.directory !== undefined && git.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: [git[0] as string],
          message: 'either directory or a git source (repoURL, targetRevision, path), not both',
        });
      } else if (
        source.directory === undefined &&
        (source.repoURL === undefined || source.path === undefined)
      ) {
        ctx.addIssue({
          code: 'custom',
          path: [source.repoURL === undefined ? 'repoURL' : 'path'],
          message:
            'give directory (a local copy) or repoURL and path (e.g. https://github.com/argoproj/argo-cd, path resource_customizations, targetRevision v3.1.0)',
        });
      }
    })
    .optional(),
  /**
   * argocd-cm's `data`, as written there: the `resource.customizations` block and the
   * `resource.customizations.health.<group>_<kind>` / `.useOpenLibs.<group>_<kind>` keys.
   */
  /**
   * The cluster's own argocd-cm: where a destination cluster has one (ConfigMap `argocd-cm` in `namespace`,
   * default `argocd`), its resource.customizations health keys apply too, below `argocdCm`'s. `false`: not read.
   */
  clusterArgocdCm: z
    .union([z.literal(false), z.strictObject({ namespace: nonEmpty.default('argocd') })])
    .default({ namespace: 'argocd' }),
  argocdCm: z
    .record(z.string(), z.string())
    .default({})
    .superRefine((data, ctx) => {
      for (const problem of parseResourceCustomizations(data).problems) {
        ctx.addIssue({ code: 'custom', path: [problem.key], message: problem.message });
      }
    }),
});

/**
 * Kustomize binaries by version, for Applications that set `spec.source.kustomize.version` (Argo CD: argocd-cm
 * `kustomize.path.<version>`). Without a version the kustomize (or kubectl) on PATH renders.
 */
const KustomizeSettingsSchema = z.strictObject({
  versions: z.record(nonEmpty, nonEmpty).default({}),
});

/** A command of a Config Management Plugin: `command` run with `args` appended (Argo CD plugin.yaml Command). */
const PluginCommandSchema = z.strictObject({
  command: z.array(nonEmpty).min(1),
  args: z.array(z.string()).default([]),
});

/**
 * A Config Management Plugin, declared as Argo CD's `plugin.yaml` (ConfigManagementPlugin spec) declares it: an
 * Application's `source.plugin.name` is `<name>` or `<name>-<version>`; without a name the first plugin whose
 * `discover` matches the source folder renders it.
 */
const PluginSchema = z.strictObject({
  name: nonEmpty,
  version: nonEmpty.optional(),
  init: PluginCommandSchema.optional(),
  generate: PluginCommandSchema,
  discover: z
    .strictObject({
      /** A glob of files in the source folder (e.g. `./subdir/s*.yaml`). */
      fileName: nonEmpty.optional(),
      find: z
        .strictObject({
          glob: nonEmpty.optional(),
          command: z.array(nonEmpty).min(1).optional(),
          args: z.array(z.string()).default([]),
        })
        .optional(),
    })
    .optional(),
  /** Time limit of each command (default `defaults.commandTimeoutSeconds`). */
  timeoutSeconds: z.number().int().positive().optional(),
});

export const SettingsSchema = z.strictObject({
  applications: z.array(ApplicationSourceEntrySchema).default([]),
  clusters: z.array(ClusterSchema).default([]),
  gitCredentials: z.array(GitCredentialSchema).default([]),
  helmCredentials: z.array(HelmCredentialSchema).default([]),
  kustomize: KustomizeSettingsSchema.prefault({}),
  plugins: z.array(PluginSchema).default([]),
  defaults: DefaultsSchema.prefault({}),
  environments: EnvironmentsSchema.default({}),
  resourceTracking: ResourceTrackingSchema.prefault({}),
  health: HealthSettingsSchema.prefault({}),
  webhook: WebhookSettingsSchema.prefault({}),
  promotion: PromotionSchema.prefault({}),
});

type SettingsFile = z.infer<typeof SettingsSchema>;
export type ApplicationSourceEntry = z.infer<typeof ApplicationSourceEntrySchema>;
export type GitCredential = z.infer<typeof GitCredentialSchema>;
export type HelmCredential = z.infer<typeof HelmCredentialSchema>;
export type HealthSettings = z.infer<typeof HealthSettingsSchema>;
export type PluginSettings = z.infer<typeof PluginSchema>;
export type WebhookSettings = z.infer<typeof WebhookSettingsSchema>;

/** Settings as loaded: the file's content plus where it was read from (relative paths resolve against `baseDir`). */
export interface Settings extends SettingsFile {
  /** Absolute path of wavesync.yaml. */
  file: string;
  /** Absolute directory of wavesync.yaml; relative paths in it and in local Application sources resolve here. */
  baseDir: string;
}
