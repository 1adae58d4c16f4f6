// bash's check_binary_file: a file the kernel would not run (ENOEXEC) is run
// as a shell script unless its first 80 bytes look binary: an ELF header, or
// a NUL before the first newline (before the second after a #! line).

/** Bytes bash samples. */
export const SAMPLE_BYTES = 80;

export function looksBinary(sample: Uint8Array): boolean {
  const s = sample.subarray(0, SAMPLE_BYTES);
  if (s.length >= 4 && s[0] === 0x7f && s[1] === 0x45 && s[2] === 0x4c && s[3] === 0x46) return true;
  let lines = s[0] === 0x23 && s[1] === 0x21 ? 2 : 1;
  for (const b of s) {
    if (b === 0x0a && --lines === 0) return false;
    if (b === 0) return true;
  }
  return false;
}
