# Fixed-size binary records with dd: write, seek, read one back, and inspect with od.
for i in 0 1 2 3; do printf 'rec%d----' "$i"; done > records.bin
wc -c < records.bin
dd if=records.bin bs=8 skip=2 count=1 2>/dev/null; echo
printf 'REC1' | dd of=records.bin bs=8 seek=1 conv=notrunc 2>/dev/null
od -An -c -w8 records.bin
dd if=/dev/zero bs=512 count=4 2>/dev/null | wc -c
head -c 16 records.bin | xxd -g 4
truncate -s 40 records.bin; wc -c < records.bin; tail -c 8 records.bin | od -An -tx1
