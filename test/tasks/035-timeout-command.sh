# timeout: a slow command is cut off with 124, a fast one keeps its status; kill -s via timeout.
timeout 0.5 sleep 5; echo "slow: $?"
timeout 5 sh -c 'exit 3'; echo "fast: $?"
timeout -s KILL 0.3 sleep 5; echo "killed: $?"
timeout 5 sh -c 'echo started; sleep 60; echo never'; echo "partial: $?"
if timeout 2 true; then echo "true ok"; fi
timeout 0.3 bash -c 'while :; do :; done'; echo "busy: $?"
