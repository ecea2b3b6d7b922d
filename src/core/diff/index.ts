// Comparing two runs of one scenario (issue 20): `diff`, `audit --baseline` and the MCP server's
// `diff` tool. Pure TypeScript, like the rest of src/core. docs/ci.md explains the identities.
export { diffSnapshots, type DiffInput } from './diff';
export { counterIds } from './match-findings';
export { pairEndpoints } from './endpoints';
export type * from './types';
export { baselineStates, type BaselineStatus } from './baseline';
export { findingIdentities, type FindingIdentity } from './identity';
