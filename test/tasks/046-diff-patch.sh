# diff and patch: make a unified diff, apply it to a copy, reverse it.
mkdir old new
printf 'line1\nline2\nline3\nline4\n' > old/f.txt
printf 'line1\nLINE2\nline3\nline4\nline5\n' > new/f.txt
diff -u old/f.txt new/f.txt | sed '1,2s/\t.*//' > change.patch
cat change.patch
cp old/f.txt work.txt
patch -s work.txt < change.patch && cmp work.txt new/f.txt && echo applied
patch -s -R work.txt < change.patch && cmp work.txt old/f.txt && echo reversed
diff -q old new; echo "diff -q: $?"
diff <(echo a) <(echo a) && echo identical
