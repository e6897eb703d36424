import { defineConfig } from 'vitest/config';

// Unit tests run in Node. GPU tests get a Dawn device from the `webgpu` package
// (SwiftShader on machines without a GPU), so they are slow: keep them tiny.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // GPU tests share one Dawn instance per worker; SwiftShader already uses every core.
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
