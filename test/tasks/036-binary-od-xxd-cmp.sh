# Binary data: write bytes with printf, inspect with od and xxd, compare with cmp, round-trip xxd -r.
printf '\x00\x01\x02\xff\xfeABC\n' > a.bin
cp a.bin b.bin
printf '\x10' | dd of=b.bin bs=1 seek=2 conv=notrunc 2>/dev/null
od -An -tx1 a.bin
od -c b.bin
xxd a.bin
cmp a.bin b.bin; echo "cmp: $?"
cmp -l a.bin b.bin
xxd -p a.bin | xxd -r -p > c.bin && cmp a.bin c.bin && echo roundtrip
wc -c < a.bin
head -c 3 a.bin | od -An -tu1
