# Python in a shell pipeline: reading stdin, exit codes under set -o pipefail, and a heredoc program.
set -o pipefail
seq 1 20 | python3 -c '
import sys
nums = [int(l) for l in sys.stdin]
print(sum(n for n in nums if n % 3 == 0), max(nums))
'
python3 - <<'PY' | sort -r | head -3
import itertools
for a, b in itertools.combinations("wxyz", 2):
    print(a + b)
PY
python3 -c 'import sys; sys.exit(4)' | cat; echo "pipefail status: $?"
python3 -c 'raise SystemExit("fatal: bad config")' 2>/dev/null; echo "SystemExit: $?"
python3 -c 'print(1/0)' 2>&1 | tail -n 1
