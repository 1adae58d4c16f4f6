// getopts: POSIX option parsing for scripts, over $OPTIND and $OPTARG.

import type { Builtin } from './types.js';

export const getopts: Builtin = (sh, argv) => {
  const [, spec, name, ...given] = argv;
  if (spec === undefined || name === undefined) {
    sh.error('getopts: usage: getopts optstring name [arg ...]');
    return 2;
  }
  const args = given.length ? given : sh.positional;
  const silent = spec.startsWith(':');
  const optspec = silent ? spec.slice(1) : spec;
  let optind = Number(sh.vars.get('OPTIND') ?? '1') || 1;
  const sub = Number(sh.vars.get('__OPTSUB') ?? '1') || 1;
  const arg = args[optind - 1];
  if (arg === undefined || arg === '-' || !arg.startsWith('-') || arg === '--') {
    // The end: OPTIND names the first operand (never past the end), OPTARG is unset.
    sh.vars.set('OPTIND', String(arg === '--' ? optind + 1 : Math.min(optind, args.length + 1)));
    sh.vars.set(name, '?');
    sh.vars.unset('OPTARG');
    return 1;
  }
  const c = arg[sub];
  let nextSub = sub + 1;
  const advance = () => {
    if (nextSub >= arg.length) {
      optind++;
      nextSub = 1;
    }
  };
  const idx = optspec.indexOf(c);
  if (idx < 0 || c === ':') {
    advance();
    sh.vars.set(name, '?');
    if (silent) sh.vars.set('OPTARG', c);
    else {
      sh.vars.unset('OPTARG');
      sh.write(2, `${sh.errorName}: illegal option -- ${c}\n`);
    }
  } else if (optspec[idx + 1] === ':') {
    let value: string | undefined;
    if (sub + 1 < arg.length) value = arg.slice(sub + 1);
    else value = args[optind++];
    optind++;
    nextSub = 1;
    if (value === undefined) {
      optind--;
      if (silent) {
        sh.vars.set(name, ':');
        sh.vars.set('OPTARG', c);
      } else {
        sh.vars.set(name, '?');
        sh.vars.unset('OPTARG');
        sh.write(2, `${sh.errorName}: option requires an argument -- ${c}\n`);
      }
    } else {
      sh.vars.set(name, c);
      sh.vars.set('OPTARG', value);
    }
  } else {
    advance();
    sh.vars.set(name, c);
    sh.vars.unset('OPTARG');
  }
  sh.vars.set('OPTIND', String(optind));
  sh.vars.set('__OPTSUB', String(nextSub));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    // bash parses the option all the same, then refuses the name.
    sh.vars.unset(name);
    sh.error(`getopts: \`${name}': not a valid identifier`);
    return 1;
  }
  return 0;
};
