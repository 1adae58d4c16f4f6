# Split a big file into chunks, reassemble, verify; also split lines and paste columns.
seq 1 1000 > big.txt
split -l 300 big.txt part_
ls part_*
wc -l part_* | tail -n 1
cat part_* > rebuilt.txt && cmp big.txt rebuilt.txt && echo rebuilt
split -b 1000 -d big.txt chunk.
ls chunk.* | wc -l
seq 1 6 | paste - - -
paste -d: <(seq 1 3) <(printf 'a\nb\nc\n')
