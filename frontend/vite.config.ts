import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** The frontend's directory. */
const root = new URL('./', import.meta.url);

/** Where the console's own files go: the server refuses them without a session (internal/server/admin.go). */
const consoleAssets = 'assets/console/';

const consoleDir = fileURLToPath(new URL('src/features/console/', root));
const consolePublicDir = fileURLToPath(new URL('src/features/console/public/', root));

/** Whether a module is the console's own: under src/features/console/ but not its public part. */
function isConsoleModule(id: string): boolean {
  return id.startsWith(consoleDir) && !id.startsWith(consolePublicDir);
}

/** The names of the chunks built into consoleAssets, for their style sheets. */
const consoleChunks = new Set<string>();

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
    rollupOptions: {
      output: {
        // The console's chunks go to assets/console/, which the server
        // hands out only with a session; its public part (sign-in, enrol,
        // the frame) stays in assets/.
        chunkFileNames: (chunk) => {
          const own = chunk.moduleIds.filter(isConsoleModule);
          if (own.length === 0) return 'assets/[name]-[hash].js';
          const others = chunk.moduleIds.filter((id) => !isConsoleModule(id));
          if (others.length > 0) {
            throw new Error(
              `vite.config.ts: chunk ${chunk.name} mixes console modules with public ones (${others.join(', ')})`,
            );
          }
          consoleChunks.add(chunk.name);
          return `${consoleAssets}[name]-[hash].js`;
        },
        // A chunk's style sheet comes from the chunk's own module, or is
        // named after the chunk.
        assetFileNames: (asset) => {
          const fromConsole =
            asset.originalFileNames.some((file) =>
              isConsoleModule(fileURLToPath(new URL(file, root))),
            ) ||
            asset.names.some(
              (name) => name.endsWith('.css') && consoleChunks.has(name.slice(0, -4)),
            );
          return `${fromConsole ? consoleAssets : 'assets/'}[name]-[hash][extname]`;
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/shared/test-setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
