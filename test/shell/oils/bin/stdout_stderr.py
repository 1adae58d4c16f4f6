#!/usr/bin/env node
// stdout_stderr.py [OUT [ERR [STATUS]]]: prints OUT (default STDOUT) on stdout,
// ERR (default STDERR) on stderr, exits with STATUS (the Oils spec tests' helper).
const [out = 'STDOUT', err = 'STDERR', status = '0'] = process.argv.slice(2);
process.stdout.write(out + '\n');
process.stderr.write(err + '\n');
process.exitCode = Number.parseInt(status, 10) || 0;
