// make's built-in database, the part of GNU make 4.3's that C, C++,
// assembler and shell-script projects rely on: default variables, the
// .SUFFIXES list and the pattern rules behind them (`-r` drops the rules,
// `-R` the variables).

import type { Make } from './context.js';
import type { PatternRule } from './rules.js';

const VARS: Record<string, string> = {
  AR: 'ar', ARFLAGS: 'rv', AS: 'as', CC: 'cc', CXX: 'g++', CPP: '$(CC) -E', LD: 'ld', RM: 'rm -f',
  LEX: 'lex', YACC: 'yacc', FC: 'f77', PC: 'pc', CO: 'co', GET: 'get', TEX: 'tex', MAKEINFO: 'makeinfo',
  OUTPUT_OPTION: '-o $@',
  'COMPILE.c': '$(CC) $(CFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c',
  'LINK.c': '$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)',
  'LINK.o': '$(CC) $(LDFLAGS) $(TARGET_ARCH)',
  'COMPILE.cc': '$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c',
  'LINK.cc': '$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)',
  'COMPILE.C': '$(COMPILE.cc)', 'LINK.C': '$(LINK.cc)', 'COMPILE.cpp': '$(COMPILE.cc)', 'LINK.cpp': '$(LINK.cc)',
  'COMPILE.s': '$(AS) $(ASFLAGS) $(TARGET_MACH)',
  'COMPILE.S': '$(CC) $(ASFLAGS) $(CPPFLAGS) $(TARGET_MACH) -c',
  'LINK.s': '$(CC) $(ASFLAGS) $(LDFLAGS) $(TARGET_MACH)',
  'LINK.S': '$(CC) $(ASFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_MACH)',
  'PREPROCESS.S': '$(CC) -E $(CPPFLAGS)',
};

export const SUFFIXES = ['.out', '.a', '.ln', '.o', '.c', '.cc', '.C', '.cpp', '.p', '.f', '.F', '.m', '.r', '.y', '.l', '.ym', '.yl', '.s', '.S', '.mod', '.sym', '.def', '.h', '.info', '.dvi', '.tex', '.texinfo', '.texi', '.txinfo', '.w', '.ch', '.web', '.sh', '.elc', '.el'];

/** [target, prerequisite, recipe], in the order GNU make's database lists them. */
const RULES: [string, string, string][] = [
  ['%', '%.o', '$(LINK.o) $^ $(LOADLIBES) $(LDLIBS) -o $@'],
  ['%', '%.c', '$(LINK.c) $^ $(LOADLIBES) $(LDLIBS) -o $@'],
  ['%.o', '%.c', '$(COMPILE.c) $(OUTPUT_OPTION) $<'],
  ['%', '%.cc', '$(LINK.cc) $^ $(LOADLIBES) $(LDLIBS) -o $@'],
  ['%.o', '%.cc', '$(COMPILE.cc) $(OUTPUT_OPTION) $<'],
  ['%', '%.C', '$(LINK.C) $^ $(LOADLIBES) $(LDLIBS) -o $@'],
  ['%.o', '%.C', '$(COMPILE.C) $(OUTPUT_OPTION) $<'],
  ['%', '%.cpp', '$(LINK.cpp) $^ $(LOADLIBES) $(LDLIBS) -o $@'],
  ['%.o', '%.cpp', '$(COMPILE.cpp) $(OUTPUT_OPTION) $<'],
  ['%', '%.s', '$(LINK.s) $^ $(LOADLIBES) $(LDLIBS) -o $@'],
  ['%.o', '%.s', '$(COMPILE.s) -o $@ $<'],
  ['%', '%.S', '$(LINK.S) $^ $(LOADLIBES) $(LDLIBS) -o $@'],
  ['%.o', '%.S', '$(COMPILE.S) -o $@ $<'],
  ['%.s', '%.S', '$(PREPROCESS.S) $< > $@'],
  ['%', '%.sh', 'cat $< >$@\nchmod a+x $@'],
];

export function installBuiltins(mk: Make): void {
  mk.suffixes = mk.opts.noBuiltinRules ? [] : [...SUFFIXES];
  if (!mk.opts.noBuiltinVars) {
    for (const [k, v] of Object.entries(VARS)) mk.globals.vars.set(k, { value: v, flavor: 'recursive', origin: 'default' });
  }
  if (mk.opts.noBuiltinRules) return;
  const loc = { file: '<builtin>', line: 0 };
  for (const [t, d, r] of RULES) {
    const lines = r.split('\n');
    const rule: PatternRule = { targets: [t], deps: [d], orderOnly: [], recipe: { lines, lineNos: lines.map(() => 0), loc }, terminal: false };
    mk.builtinRules.push(rule);
  }
}
