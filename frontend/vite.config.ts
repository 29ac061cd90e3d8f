import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { defineConfig, type Plugin } from 'vitest/config';

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

/** The follow page's service worker: its source, and where it is served (the root, so it may control /follow). */
const workerSource = fileURLToPath(new URL('src/features/follow/sw.ts', root));
const workerFile = 'sw.js';

/** The root files the follow page's worker keeps besides the built ones (public/). */
const workerPublicFiles = [
  '/manifest.webmanifest',
  '/favicon.svg',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
];

/**
 * Writes the follow page's precache list into the worker (sw.ts's
 * __FOLLOW_PRECACHE__): the entry's files and the follow page's chunk,
 * with the chunks and style sheets they import, and the public files the
 * app needs, with a version made of the list, so a build that changes any
 * of them makes a new worker. The worker may import nothing the app
 * imports too: it must build as one classic script, no import in it.
 */
function followWorkerPrecache(): Plugin {
  return {
    name: 'follow-worker-precache',
    enforce: 'post',
    generateBundle(_options, bundle: OutputBundle) {
      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
      const worker = chunks.find((c) => c.facadeModuleId === workerSource);
      const entry = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith('/index.html'));
      const follow = chunks.find((c) =>
        c.facadeModuleId?.endsWith('/src/features/follow/follow.tsx'),
      );
      if (!worker || !entry || !follow) {
        throw new Error(
          'vite.config.ts: the follow worker, the entry or the follow page is missing',
        );
      }
      if (
        worker.imports.length > 0 ||
        worker.dynamicImports.length > 0 ||
        /\bimport\s*\(/.test(worker.code)
      ) {
        throw new Error(
          `vite.config.ts: ${workerFile} imports other chunks (${worker.imports.join(', ')})`,
        );
      }
      const files = new Set<string>();
      const add = (chunk: OutputChunk) => {
        if (files.has(`/${chunk.fileName}`)) return;
        files.add(`/${chunk.fileName}`);
        for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(`/${css}`);
        for (const name of chunk.imports) {
          const imported = bundle[name];
          if (imported?.type === 'chunk') add(imported);
        }
      };
      add(entry);
      add(follow);
      const list = [...[...files].sort(), ...workerPublicFiles];
      const version = createHash('sha256').update(list.join('\n')).digest('hex').slice(0, 16);
      const marker = '__FOLLOW_PRECACHE__';
      if (!worker.code.includes(marker))
        throw new Error(`vite.config.ts: ${workerFile} has no ${marker}`);
      worker.code = worker.code.replaceAll(marker, JSON.stringify({ version, files: list }));
    },
  };
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
    followWorkerPrecache(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    rollupOptions: {
      // The site, and the follow page's service worker at the root.
      input: { index: fileURLToPath(new URL('index.html', root)), sw: workerSource },
      output: {
        entryFileNames: (chunk) =>
          chunk.facadeModuleId === workerSource ? workerFile : 'assets/[name]-[hash].js',
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
