/**
 * Per-request write options decoded from the query string (dryRun, fieldManager, force, fieldValidation) and
 * the warnings a request collects for the `Warning` response header.
 */
import { badRequest } from './status-error.js';

type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface RequestOptions {
  dryRun: boolean;
  fieldManager?: string;
  force: boolean;
  fieldValidation: FieldValidation;
  /** Manager name used when the request names none (derived from the User-Agent, as the apiserver does). */
  defaultManager: string;
  warnings: string[];
}

export function parseRequestOptions(query: URLSearchParams, userAgent: string | undefined): RequestOptions {
  const dryRun = query.getAll('dryRun');
  if (dryRun.some((d) => d !== 'All'))
    throw badRequest(`Invalid dry run value: ${dryRun.join(',')}; supported values: "All"`);
  const validation = query.get('fieldValidation') ?? 'Warn';
  if (!['Strict', 'Warn', 'Ignore'].includes(validation)) {
    throw badRequest(`fieldValidation must be one of "Ignore", "Warn", or "Strict", got ${validation}`);
  }
  const options: RequestOptions = {
    dryRun: dryRun.length > 0,
    force: query.get('force') === 'true',
    fieldValidation: validation as FieldValidation,
    defaultManager: (userAgent ?? 'unknown').split('/')[0] || 'unknown',
    warnings: [],
  };
  const manager = query.get('fieldManager');
  if (manager) options.fieldManager = manager;
  return options;
}

export function managerOf(options: RequestOptions): string {
  return options.fieldManager ?? options.defaultManager;
}
