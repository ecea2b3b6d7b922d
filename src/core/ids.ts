// Event-id schemes: parsing ids into (stream part, counter) (ids/parse.ts), sets of delivered
// counters (ids/interval-set.ts), and the per-session inference of the scheme from incrementally
// kept statistics (ids/scheme.ts).
export * from './ids/parse';
export * from './ids/interval-set';
export * from './ids/scheme';
