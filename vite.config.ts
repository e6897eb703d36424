import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // The trainer runs in a module worker.
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  server: { host: '127.0.0.1' },
});
