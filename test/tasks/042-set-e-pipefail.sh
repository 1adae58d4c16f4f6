# Error handling: set -e, pipefail, || and traps, as a deploy-like script would use them.
set -uo pipefail
cleanup() { echo "cleanup ran"; }
trap cleanup EXIT
step() { echo "step $1"; }
step 1
false | true; echo "pipefail status: $?"
if ! grep -q needle /dev/null; then echo "not found"; fi
( set -e; step 2; false; step never ) ; echo "subshell: $?"
out=$(set -e; echo before; false; echo after) ; echo "cmdsub: $? [$out]"
count=0
for f in a b c; do count=$((count + 1)); done
echo "count $count"
exit 5
