// CRC-32 with polynomial 0x04C11DB7, most significant bit first, no
// reflection: the table POSIX cksum and bzip2 share (gzip and zip use the
// reflected form).

export const CRC32_MSB_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    t[i] = c >>> 0;
  }
  return t;
})();
