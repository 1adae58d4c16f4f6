# Checksums of generated binary files: sha256sum, md5sum, -c verification, a corrupted file detected.
head -c 4096 /dev/zero > zeros.bin
seq 1 2000 > nums.txt
printf '\xde\xad\xbe\xef' > magic.bin
sha256sum zeros.bin nums.txt magic.bin > SUMS
cat SUMS
md5sum magic.bin
sha256sum -c SUMS
printf 'X' | dd of=nums.txt bs=1 seek=10 conv=notrunc 2>/dev/null
sha256sum -c SUMS 2>/dev/null; echo "verify: $?"
cksum magic.bin
