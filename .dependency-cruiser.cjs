// Import boundaries of the monorepo, checked by dependency-cruiser (scripts/boundaries.mjs runs it in the checks
// before the tests and prints the counts; docs/architecture.md gives the layers and the reasons of the few
// imports still allowed against them).
//
// Layers: packages (contracts, geo, formats) sit below the apps; in the server, infrastructure (database,
// device link, broker, push transport, call plumbing, storage, static files, configuration, dependencies,
// shared texts) sits below the features; in the web app, shared/ sits below features/, which sit below app/.
// A feature uses another feature only through its entry (index.ts); a server feature also through api.ts, what
// other features use of it (index.ts, the FeatureModule, imports the whole feature, so other features reaching
// it would make cycles).

/** Server folders and root files that are infrastructure: they never import a feature. */
const SERVER_INFRA = '(db|link|broker|push|calls|storage|static|types)/|(config|config-error|deps|texts|threads)\\.ts$|boot/module\\.ts$';
/** Server files that compose the application from everything: they may import anything. boot/module.ts, the
 * shape of a feature module, is infrastructure. */
const SERVER_ROOT = '(app|main|cli)\\.ts$|boot/(?!module\\.ts$)|demo/';
/** Tests and their fixtures may reach anywhere in their own app. */
const TESTS = '\\.test\\.tsx?$|/test-fixtures\\.ts$|/testing\\.ts$|/fixtures\\.ts$|/test/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle anywhere: modules form layers, and a cycle makes load order and ownership unclear.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'package-imports-app',
      comment: 'The shared packages are used by the apps, never the reverse.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'product-imports-test-fixtures',
      comment: 'The contracts\' test fixtures (@nest/contracts/test-fixtures) are for tests and their fixtures only.',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { path: '^packages/contracts/src/test-fixtures\\.ts$' },
    },
    {
      name: 'app-imports-app',
      comment: 'An app never imports another app; only the launcher brings them together.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/', pathNot: ['^apps/launcher/', TESTS] },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'server-infrastructure-imports-feature',
      comment: 'Server infrastructure never imports a feature: features register with it (see apps/server/src/app.ts).',
      severity: 'error',
      from: { path: `^apps/server/src/(${SERVER_INFRA})`, pathNot: TESTS },
      to: { path: '^apps/server/src/', pathNot: `^apps/server/src/(${SERVER_INFRA}|${SERVER_ROOT})` },
    },
    {
      name: 'server-feature-imports-root',
      comment: 'Features and infrastructure never import the files that compose the server (app, main, boot, demo).',
      severity: 'error',
      from: { path: '^apps/server/src/', pathNot: `^apps/server/src/(${SERVER_ROOT})|${TESTS}` },
      to: { path: `^apps/server/src/(${SERVER_ROOT})` },
    },
    {
      name: 'server-feature-internals',
      comment:
        'A server feature uses another feature only through its entries: index.ts (the FeatureModule) or api.ts (what other features use of it).',
      severity: 'error',
      from: { path: '^apps/server/src/([^/]+)/', pathNot: `^apps/server/src/(${SERVER_INFRA}|${SERVER_ROOT})|${TESTS}` },
      to: {
        path: '^apps/server/src/[^/]+/',
        pathNot: [`^apps/server/src/$1/`, `^apps/server/src/(${SERVER_INFRA}|${SERVER_ROOT})`, '^apps/server/src/[^/]+/(index|api)\\.ts$'],
      },
    },
    {
      name: 'web-shared-imports-feature',
      comment: 'The web app’s shared/ sits below its features and app/: it never imports them.',
      severity: 'error',
      from: { path: '^apps/web/src/shared/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
    {
      name: 'web-feature-imports-app',
      comment: 'A web feature never imports app/ (the shell, routes and menu that bring the features together).',
      severity: 'error',
      from: { path: '^apps/web/src/features/', pathNot: TESTS },
      to: { path: '^apps/web/src/app/' },
    },
    {
      name: 'web-feature-internals',
      comment: 'A web feature uses another feature only through its entry (index.ts).',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/', pathNot: TESTS },
      to: {
        path: '^apps/web/src/features/[^/]+/',
        pathNot: ['^apps/web/src/features/$1/', '^apps/web/src/features/[^/]+/index\\.tsx?$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests are left out: they may reach anywhere in their own app, and nothing imports them (a cycle through
    // one is impossible). Leaving them out halves the time.
    exclude: { path: ['node_modules', '/dist/', '\\.test\\.tsx?$'] },
    // Type-only imports count too: a type tying infrastructure to a feature is a dependency all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.d.ts'],
    },
  },
};
