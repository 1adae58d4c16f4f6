// BrowserVM (Node): agentOS in headless Chromium through Playwright, with AgentVM's interface.
// Built to dist/node/browser-vm.js; playwright-core stays an external import.

export { BrowserVM, type BrowserVMOptions } from './browser-vm.js';
export { CHROMIUM_ARGS, DEBIAN_CHROMIUM, type BrowserChoice } from './browsers.js';
export { DEFAULT_APP_DIR, serveApp } from './app.js';
export type { ExecResult, OutputListener, AuditListener, Terminal, TerminalOptions } from '../agent-vm.js';
export type { ExecBytesResult, ExecOptions } from '../exec-session.js';
