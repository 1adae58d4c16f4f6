// Every topic of the differential suite, in the order they run.
import type { Topic } from '../types.js';
import arith from './arith.js';
import arrays from './arrays.js';
import bashCompat from './bash-compat.js';
import cd, { pushd } from './builtins-cd.js';
import { echo, printf } from './builtins-echo-printf.js';
import { alias, evalSource, exitReturn, letAndMisc, shiftGetopts, trap, typeCommand } from './builtins-misc.js';
import { mapfile, read } from './builtins-read.js';
import set from './builtins-set.js';
import test from './builtins-test.js';
import vars from './builtins-vars.js';
import cond from './cond.js';
import control from './control.js';
import errors from './errors.js';
import expansion from './expansion.js';
import functions from './functions.js';
import heredoc from './heredoc.js';
import params from './params.js';
import pipelines from './pipelines.js';
import quoting from './quoting.js';
import redirection from './redirection.js';
import subshells from './subshells.js';

export const TOPICS: Topic[] = [
  quoting,
  params,
  expansion,
  arith,
  control,
  functions,
  redirection,
  heredoc,
  pipelines,
  subshells,
  bashCompat,
  arrays,
  cond,
  echo,
  printf,
  read,
  mapfile,
  test,
  cd,
  pushd,
  set,
  vars,
  shiftGetopts,
  evalSource,
  trap,
  exitReturn,
  typeCommand,
  alias,
  letAndMisc,
  errors,
];
