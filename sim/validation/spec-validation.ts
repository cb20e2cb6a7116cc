/**
 * Kind-specific validation for what syncs hit: workloads need a selector matching their template labels and
 * containers with name and image; ConfigMap keys must be valid; Service ports need a port number.
 */
import type { StatusCause } from '../api/status-error.js';
import { isJsonObject, type JsonObject, type KubeObject } from '../store/kube-object.js';
import { invalidValue, required, validateLabels, validateName } from './metadata-validation.js';

const WORKLOADS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet']);
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

export function validateSpec(obj: KubeObject): StatusCause[] {
  const spec = isJsonObject(obj.spec) ? obj.spec : undefined;
  if (WORKLOADS.has(obj.kind)) return validateWorkload(spec);
  if (obj.kind === 'Job') return validatePodTemplate(spec?.template, 'spec.template');
  if (obj.kind === 'CronJob') {
    const jobTemplate = isJsonObject(spec?.jobTemplate) ? spec.jobTemplate : {};
    const causes = spec?.schedule ? [] : [required('spec.schedule')];
    return [
      ...causes,
      ...validatePodTemplate(
        (jobTemplate.spec as JsonObject | undefined)?.template,
        'spec.jobTemplate.spec.template',
      ),
    ];
  }
  if (obj.kind === 'Pod') return validatePodSpec(spec, 'spec');
  if (obj.kind === 'ConfigMap' || obj.kind === 'Secret') return validateDataKeys(obj);
  if (obj.kind === 'Service') return validateServicePorts(spec);
  return [];
}

function validateWorkload(spec: JsonObject | undefined): StatusCause[] {
  const selector = isJsonObject(spec?.selector) ? spec.selector : undefined;
  const causes: StatusCause[] = [];
  if (!selector) causes.push(required('spec.selector'));
  const template = isJsonObject(spec?.template) ? spec.template : undefined;
  causes.push(...validatePodTemplate(template, 'spec.template'));
  const labels = ((template?.metadata as JsonObject | undefined)?.labels ?? {}) as Record<string, string>;
  const matchLabels = (selector?.matchLabels ?? {}) as Record<string, string>;
  if (selector && !Object.entries(matchLabels).every(([k, v]) => labels[k] === v)) {
    causes.push(
      invalidValue('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'),
    );
  }
  return causes;
}

function validatePodTemplate(template: unknown, field: string): StatusCause[] {
  if (!isJsonObject(template)) return [required(`${field}.spec.containers`)];
  const meta = isJsonObject(template.metadata) ? template.metadata : {};
  return [
    ...validateLabels(meta.labels, `${field}.metadata.labels`),
    ...validatePodSpec(isJsonObject(template.spec) ? template.spec : undefined, `${field}.spec`),
  ];
}

function validatePodSpec(spec: JsonObject | undefined, field: string): StatusCause[] {
  const containers = Array.isArray(spec?.containers) ? (spec.containers as JsonObject[]) : [];
  if (containers.length === 0) return [required(`${field}.containers`)];
  const causes: StatusCause[] = [];
  containers.forEach((c, i) => {
    const at = `${field}.containers[${i}]`;
    if (!c.name) causes.push(required(`${at}.name`));
    else causes.push(...validateName(String(c.name), 'label', `${at}.name`));
    if (!c.image) causes.push(required(`${at}.image`));
  });
  const policy = spec?.restartPolicy;
  if (policy !== undefined && !['Always', 'OnFailure', 'Never'].includes(String(policy))) {
    causes.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${JSON.stringify(policy)}: supported values: "Always", "OnFailure", "Never"`,
      field: `${field}.restartPolicy`,
    });
  }
  return causes;
}

function validateDataKeys(obj: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const section of ['data', 'binaryData', 'stringData']) {
    const data = obj[section];
    if (!isJsonObject(data)) continue;
    for (const key of Object.keys(data)) {
      if (!CONFIG_KEY.test(key) || key.length > 253) {
        causes.push(
          invalidValue(
            `${section}[${key}]`,
            key,
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
          ),
        );
      }
    }
  }
  return causes;
}

function validateServicePorts(spec: JsonObject | undefined): StatusCause[] {
  const ports = Array.isArray(spec?.ports) ? (spec.ports as JsonObject[]) : [];
  const causes: StatusCause[] = [];
  ports.forEach((p, i) => {
    if (typeof p.port !== 'number') causes.push(required(`spec.ports[${i}].port`));
  });
  if (ports.length === 0 && spec?.type !== 'ExternalName' && spec?.clusterIP !== 'None')
    causes.push(required('spec.ports'));
  return causes;
}
