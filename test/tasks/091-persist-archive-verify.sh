# Persistence across invocations: build a release archive with checksums; verify and unpack it later.
mkdir -p rel/docs
printf 'v1.2.3\n' > rel/VERSION
printf 'Ünïcödé notes\n' > rel/docs/notes.txt
seq 1 500 > rel/docs/numbers.txt
tar -czf rel.tar.gz rel
sha256sum rel.tar.gz > SHA256SUMS
rm -r rel
ls
#--- next invocation ---
sha256sum -c SHA256SUMS
mkdir out && tar -xzf rel.tar.gz -C out
find out -type f | sort
cat out/rel/VERSION
#--- next invocation ---
tar -tzf rel.tar.gz | sort
wc -l out/rel/docs/numbers.txt
cat out/rel/docs/notes.txt
echo tamper >> rel.tar.gz
sha256sum -c SHA256SUMS 2>/dev/null; echo "status $?"
