#!/usr/bin/env node
// Prints the value of each named environment variable, or None when unset
// (the output of the Oils spec tests' spec/bin/printenv.py).
let out = '';
for (const name of process.argv.slice(2)) out += (process.env[name] ?? 'None') + '\n';
process.stdout.write(out);
