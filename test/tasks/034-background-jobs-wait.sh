# Background jobs: run workers in parallel, wait for each, collect statuses and outputs.
work() { sleep "0.$1"; echo "worker $1 done" > "out.$1"; return "$1"; }
pids=()
for i in 3 1 2; do work "$i" & pids+=($!); done
st=()
for p in "${pids[@]}"; do wait "$p"; st+=($?); done
echo "statuses: ${st[*]}"
cat out.1 out.2 out.3
(sleep 0.2; exit 7) &
wait $!; echo "subshell: $?"
sleep 0.1 & sleep 0.1 &
wait; echo "all waited: $?"
