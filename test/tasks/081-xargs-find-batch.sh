# Batch edits over many files: find | xargs with sed -i, counting changes with grep -c.
mkdir -p src
for i in $(seq 1 12); do printf 'import foo\nfoo.call(%d)\n' "$i" > "src/m$i.py"; done
printf 'nothing here\n' > src/other.py
grep -rl 'import foo' src | sort | xargs sed -i 's/\bfoo\b/bar/g'
grep -rc 'bar' src | sort -t: -k1,1V | head -3
grep -rl foo src | wc -l
find src -name '*.py' | xargs cat | grep -c 'bar.call'
