# Dump a large generated CSV to stdout (about 1.6 MB), as an agent does with `cat` on a big file.
seq 1 100000 | awk '{ printf "%d,%d,row-%05x\n", $1, $1 * $1 % 9973, $1 }' > big.csv
cat big.csv
wc -l < big.csv
