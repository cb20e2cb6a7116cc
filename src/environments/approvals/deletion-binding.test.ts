import { describe, expect, it } from 'vitest';
import { LEGACY_DELETION_APPROVAL as stored } from '../../../test/support/legacy-deletion-approval.js';
import { deletionOperation } from '../../queue/index.js';
import { bindingOf } from './approval-request.js';

describe('a deletion approval recorded before a deletion was its own job', () => {
  it('keeps its binding: the stored hash verifies, and a deletion approval records the same operation today', () => {
    const { request } = stored;
    const deletion = request.deletion?.request;
    if (!deletion) throw new Error('the fixture is a deletion');

    expect(bindingOf(request.application, request.revision, request.operation, deletion)).toBe(
      request.binding,
    );
    // gateRequest records a deletion's operation as deletionOperation: the same value, so the same binding.
    expect(deletionOperation(deletion)).toEqual(request.operation);
  });
});
