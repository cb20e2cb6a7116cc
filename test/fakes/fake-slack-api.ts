/** Moved to src/demo/fake-slack (the demo uses it too); re-exported here for tests. */
export * from '../../src/demo/fake-slack/fake-slack-api.js';
