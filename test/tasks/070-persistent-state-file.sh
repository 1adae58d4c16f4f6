# State kept in files between steps of a job: a counter file, a lock directory, and a resumable loop.
state=progress.txt
[ -f "$state" ] || echo 0 > "$state"
process() { for i in $(seq $(( $(cat "$state") + 1 )) "$1"); do echo "item $i"; echo "$i" > "$state"; done; }
process 3
echo "stopped at $(cat "$state")"
process 5
if mkdir job.lock 2>/dev/null; then echo "got lock"; fi
mkdir job.lock 2>/dev/null || echo "lock busy"
rmdir job.lock && echo "released"
printf '%s\n' "last=$(cat "$state")" "done=yes" > status.env
. ./status.env; echo "$last $done"
