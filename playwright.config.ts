import { defineConfig } from '@playwright/test';

// Playwright drives Debian's Chromium (never a downloaded browser): CHROMIUM_PATH or /usr/bin/chromium.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// E2E_PORT: another port for the preview server, when 4173 is taken (two checkouts testing at once).
const port = Number(process.env.E2E_PORT ?? 4173);

// Flags that keep Chromium quiet on a machine with no network beyond localhost.
const quiet = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: { baseURL: `http://127.0.0.1:${port}`, headless: true },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
  projects: [
    {
      // WebGPU on: SwiftShader (a CPU emulation) on machines without a GPU.
      name: 'webgpu',
      // The README screenshots are a tool, not a test: only with SCREENSHOTS=1.
      testIgnore: [
        /no-webgpu\.spec\.ts/,
        ...(process.env.SCREENSHOTS ? [] : [/screenshots\.spec\.ts/]),
        // The lecture demo measured over minutes: a tool, only with COT_DEMO=1.
        ...(process.env.COT_DEMO ? [] : [/cot-demo\.spec\.ts/]),
        // The concurrency of the page's ablations, measured over minutes: only with ABLATION_BENCH=1.
        ...(process.env.ABLATION_BENCH ? [] : [/ablation-bench\.spec\.ts/]),
      ],
      use: {
        launchOptions: { executablePath, args: [...quiet, '--enable-unsafe-webgpu', '--enable-features=Vulkan'] },
      },
    },
    {
      // Launched without the flag, Chromium on Linux gives no adapter: the page must explain.
      name: 'no-webgpu',
      testMatch: /no-webgpu\.spec\.ts/,
      use: { launchOptions: { executablePath, args: [...quiet] } },
    },
  ],
});
