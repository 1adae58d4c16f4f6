// ESLint flat config. Syntax-only (no type-aware rules) to stay fast.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Every bare Node built-in name (fs, fs/promises, worker_threads, ...); `node:*` is a pattern below.
const nodeBuiltins = builtinModules.filter((m) => !m.startsWith('node:'));

const HOST_AGNOSTIC = 'src/kernel, src/abi and src/common must stay host-agnostic (browser Web Worker and Node worker_thread).';

const nodeGlobals = {
  process: 'readonly',
  console: 'readonly',
  Buffer: 'readonly',
  URL: 'readonly',
  URLSearchParams: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
  setInterval: 'readonly',
  clearInterval: 'readonly',
  setImmediate: 'readonly',
  performance: 'readonly',
  AbortController: 'readonly',
  TextEncoder: 'readonly',
  TextDecoder: 'readonly',
  structuredClone: 'readonly',
  fetch: 'readonly',
};

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
      'wasm/**/*.js',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    rules: {
      // `_`-prefixed names are deliberately unused (callbacks, destructuring).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The kernel, the ABI and the pure code under them are host-agnostic.
    files: ['src/kernel/**', 'src/abi/**', 'src/common/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: `Node built-in '${name}' is not allowed here: ${HOST_AGNOSTIC}` })),
          patterns: [{ group: ['node:*'], message: `Node built-ins are not allowed here: ${HOST_AGNOSTIC}` }],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'indexedDB'].map((name) => ({
          name,
          message: `DOM global '${name}' is not allowed here: ${HOST_AGNOSTIC}`,
        })),
        ...['process', 'Buffer', 'require', '__dirname', '__filename', 'global'].map((name) => ({
          name,
          message: `Node global '${name}' is not allowed here: ${HOST_AGNOSTIC}`,
        })),
      ],
    },
  },
);
