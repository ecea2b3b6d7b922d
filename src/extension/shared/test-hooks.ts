// Whether this build exposes the read-only diagnostics the end-to-end tests read:
// `__MSI_RELAY__` (relay counters, extension isolated world), `__MSI_BACKGROUND__` (inspected
// tabs, service worker), `__MSI_PANEL__` (live store and port state) and `__MSI_UI__` (snapshot,
// exports, records; panel and viewer). None is reachable by a page, none posts anything; they are
// for tests and for a developer's console. The store build (`npm run package`, vite mode "store")
// defines __MSI_TEST_HOOKS__ as false, so the minifier drops them: a published extension carries
// no test-only code. Every other build (dist/, the e2e tests, benchmarks) keeps them.
declare const __MSI_TEST_HOOKS__: boolean | undefined;

export const TEST_HOOKS: boolean = typeof __MSI_TEST_HOOKS__ === 'boolean' ? __MSI_TEST_HOOKS__ : true;
