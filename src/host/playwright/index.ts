// BrowserVM (Node): agentOS in headless Chromium (Playwright), Firefox or WebKit, with AgentVM's interface.
// Built to dist/node/browser-vm.js; playwright-core stays an external import.

export { BrowserVM, type BrowserVMOptions } from './browser-vm.js';
export { CHROMIUM_ARGS, DEBIAN_CHROMIUM, type BrowserChoice } from './browsers.js';
export { ENGINE_DEFAULTS, ENGINES, openEnginePage, within, type Engine, type EngineOptions, type EnginePage } from './engine-page.js';
export { DEFAULT_APP_DIR, serveApp } from './app.js';
export type { ExecResult, OutputListener, AuditListener, Terminal, TerminalOptions } from '../api/agent-vm.js';
/** The one interface of every agentOS VM (src/host/api/vm.ts). */
export type { Snapshots, VM } from '../api/vm.js';
export type { ExecBytesResult, ExecOptions } from '../worker/exec-shell.js';
export type { JobInfo, JobOutput, Jobs, JobStartOptions, JobStatus } from '../api/jobs.js';
