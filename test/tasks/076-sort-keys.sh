# sort in earnest: multiple keys, numeric and human sizes, version order, stable and unique, check mode.
printf 'b 10 1.10\na 2 1.9\nc 10 1.2\na 1 2.0\n' > t.txt
sort -k2,2n -k1,1 t.txt
sort -k3,3V t.txt | cut -d' ' -f3
sort -s -k1,1 t.txt
printf '1K\n3M\n512\n2G\n20K\n' | sort -h
printf 'x\ny\nx\n' | sort | uniq -d
sort -c t.txt 2>/dev/null; echo "sorted? $?"
printf 'Éclair\nzebra\nApple\napple\n' | LC_ALL=C sort
printf '10\n9\n100\n' | sort -n -r | head -1
