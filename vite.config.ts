// Vite config for the browser build of agentOS (dist/web).
//
// - root is the repo root, so `index.html` (playground) is served at `/` and
//   the e2e harness (`e2e/harness/index.html`) at `/e2e/harness/`.
// - Workers are emitted as ES modules (`worker.format: 'es'`). The kernel
//   worker is created from src code with
//   `new Worker(new URL('../../workers/kernel.browser.ts', import.meta.url), { type: 'module' })`
//   and it creates process workers itself (nested workers) with
//   `new Worker(new URL('./process.browser.ts', import.meta.url), { type: 'module' })`;
//   Vite's worker plugin handles that pattern recursively inside worker bundles.
// - SharedArrayBuffer needs cross-origin isolation, hence COOP/COEP on both the
//   dev server and `vite preview`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

const crossOriginIsolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// HTML entry points. Both are expected to exist; the harness is skipped (with a
// warning) only if its page is missing so a half-written tree still builds.
// `sandbox` is the UI-less page BrowserVM drives (src/host/playwright).
const pages: Record<string, string> = {
  main: fileURLToPath(new URL('./index.html', import.meta.url)),
  sandbox: fileURLToPath(new URL('./sandbox.html', import.meta.url)),
};
// Script entries with stable names at the top of dist/web: the embeddable
// component (`import 'https://…/agentos-terminal.js'`, the package's
// `agentos-web/component`), the browser AgentVM (`agentos-web/browser`) and the
// cross-origin isolation service worker, which must sit at the root of the scope it controls.
const scripts: Record<string, string> = {
  'agentos-terminal': fileURLToPath(new URL('./src/ui/component/agentos-terminal.ts', import.meta.url)),
  agentos: fileURLToPath(new URL('./src/host/browser/index.ts', import.meta.url)),
  'coi-sw': fileURLToPath(new URL('./src/ui/coi/sw.ts', import.meta.url)),
};
const harness = fileURLToPath(new URL('./e2e/harness/index.html', import.meta.url));
if (existsSync(harness)) pages.harness = harness;
else console.warn('[vite.config] e2e/harness/index.html missing: harness page not built');

export default defineConfig({
  root,
  publicDir: 'public',
  // Relative asset URLs: the `<agentos-terminal>` module and its workers must
  // resolve next to the module wherever a site serves dist/web, not at `/`.
  base: './',
  server: {
    headers: crossOriginIsolation,
  },
  preview: {
    headers: crossOriginIsolation,
  },
  worker: {
    format: 'es',
    rolldownOptions: {
      output: {
        // What a worker's entry shares with its lazy chunks (the runtimes) goes into a chunk of
        // its own, so no chunk imports the entry: WebKit (2.50) does not enter a module worker's
        // top-level script in its module map, and an import of that URL evaluates it a second
        // time in the same worker (the process worker confined itself twice; decision 0066).
        codeSplitting: { groups: [{ name: 'worker-core', tags: ['$initial'], test: (id) => !/workers[\\/][^\\/]+\.browser\.ts$/.test(id) }] },
      },
    },
  },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: {
      input: { ...pages, ...scripts },
      // Keep the component module's exports (Vite drops entry exports by default).
      preserveEntrySignatures: 'exports-only',
      output: {
        entryFileNames: (chunk) => (chunk.name in scripts ? '[name].js' : 'assets/[name]-[hash].js'),
      },
    },
  },
});
