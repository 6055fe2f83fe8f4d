// Unit tests sit beside the code (src/, *.spec.ts); e2e tests live in test/<module>/ mirroring src/modules/<module>/, cross-cutting ones in test/platform/ (*.e2e-spec.ts).
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': ['@swc/jest'] },
  // a few dependencies ship only ES modules: let swc turn them into CommonJS for jest
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition|openid-client|oauth4webapi|jose)/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // the organization-scoping audit: every statement on an organization-owned table compares organization_id (WHERE/ON, row, INSERT column) or says unscoped('reason'); ORG_AUDIT / ORG_AUDIT_STRICT=report|off to turn it down
  setupFilesAfterEnv: ['<rootDir>/test/support/org-audit.ts'],
  // an app start (every module, the OpenAPI document) can take 20-30 s on a loaded 2-core machine: hooks and tests get 60 s
  testTimeout: 60000,
  maxWorkers: 2,
  // a worker that has grown past this after a test file is replaced by a fresh one (each file loads the whole app; heaps of 3-4 GB made the later files slower)
  workerIdleMemoryLimit: '1536MB',
};
