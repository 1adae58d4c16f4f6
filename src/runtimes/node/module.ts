// The `module` built-in: builtinModules, createRequire, isBuiltin, and a
// Module class for code that makes its own modules (npm init's promzard:
// `new Module(file)`, then its own filename and paths, `mod.require`,
// `Module._resolveFilename`, `Module._nodeModulePaths`).

import { BUILTIN_NAMES, type RequireFn } from './modules.js';
import type { Rt } from './rt.js';

interface ModuleLike {
  id: string;
  filename: string | null;
  exports: unknown;
}

export function makeModule(rt: Rt) {
  /** A require for code in `file`: relative names from its directory, bare names up its node_modules. */
  const requireIn = (file: string) => rt.requireFrom(rt.path.resolve(file)) as RequireFn;
  const createRequire = (from: string | URL) => requireIn(String(from).replace(/^file:\/\//, ''));
  function Module(this: ModuleLike & Record<string, unknown>, id = '', parent?: unknown) {
    Object.assign(this, { id, path: id ? rt.path.dirname(id) : '.', exports: {}, filename: null, loaded: false, parent, children: [], paths: [] });
  }
  Module.prototype.require = function (this: ModuleLike, id: string) {
    return requireIn(this.filename ?? this.id)(id);
  };
  return Object.assign(Module, {
    Module,
    builtinModules: [...BUILTIN_NAMES],
    createRequire,
    isBuiltin: (s: string) => BUILTIN_NAMES.has(s.replace(/^node:/, '')),
    _nodeModulePaths: (dir: string) => requireIn(`${rt.path.resolve(dir)}/-`).resolve.paths('-') ?? [],
    _resolveFilename: (id: string, parent?: ModuleLike | null) => requireIn(parent?.filename ?? `${rt.path.resolve('.')}/-`).resolve(id),
  });
}
