# Persistence across invocations: make rebuilds only what changed since the last call.
printf 'all: out/report.txt\nout/report.txt: data.csv | out\n\tsort -t, -k2 -n data.csv > $@\n\techo built\nout:\n\tmkdir -p out\n' > Makefile
printf 'b,2\na,1\nc,3\n' > data.csv
make -s
#--- next invocation ---
make -s; echo "status $?"
make -q; echo "up to date: $?"
touch -d '2099-01-01' data.csv
make -q; echo "up to date: $?"
make -s
cat out/report.txt
