# Large generated data: a 200k-line file, head/tail/wc/sort -n on it, and a big pipeline output.
seq 1 200000 > big.txt
wc -l < big.txt; wc -c < big.txt
head -n 3 big.txt; tail -n 2 big.txt
sed -n '100000p' big.txt
awk 'NR % 50000 == 0' big.txt
sort -rn big.txt | head -1
seq 1 50000 | tr '\n' ' ' | wc -c
