#!/usr/bin/env node
// read_from_fd.py FD...: for each FD, prints "FD: " and up to 1024 bytes read
// from it (the Oils spec tests' helper for redirections to other descriptors).
const fs = require('fs');
for (const arg of process.argv.slice(2)) {
  const fd = Number.parseInt(arg, 10);
  const buf = Buffer.alloc(1024);
  let n;
  try {
    n = fs.readSync(fd, buf, 0, 1024, null);
  } catch (e) {
    process.stderr.write(`FATAL: Error reading from fd ${fd}: ${e.message}\n`);
    process.exit(1);
  }
  fs.writeSync(1, `${fd}: `);
  fs.writeSync(1, buf.subarray(0, n));
}
