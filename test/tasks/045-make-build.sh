# A Makefile-free build with a shell script: dependency checks with test -nt, incremental rebuilds.
mkdir -p src out
echo 'a' > src/a.txt; echo 'b' > src/b.txt
build() {
  for s in src/*.txt; do
    o=out/$(basename "$s" .txt).upper
    if [ ! -e "$o" ] || [ "$s" -nt "$o" ]; then tr a-z A-Z < "$s" > "$o"; echo "built $o"; fi
  done
}
build
build
touch -d '2030-01-01' src/b.txt
build
cat out/*.upper
