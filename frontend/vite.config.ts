import { writeFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The build is embedded into the Go binary (see ../main.go); hashed files go to
// assets/ so the Go server can mark them immutable.
export default defineConfig({
  plugins: [
    react(),
    {
      // dist/.gitkeep is committed so that `go build`, which embeds dist,
      // works on a fresh clone; the build empties dist, so put it back.
      name: 'keep-dist-gitkeep',
      closeBundle() {
        writeFileSync(new URL('./dist/.gitkeep', import.meta.url), '');
      },
    },
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test-setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
