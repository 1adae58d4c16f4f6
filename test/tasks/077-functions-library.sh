# A sourced function library with logging, option defaults and return codes, as in CI scripts.
cat > lib.sh <<'S'
log() { printf '[%s] %s\n' "$1" "$2"; }
require() { command -v "$1" >/dev/null 2>&1 || { log error "missing $1"; return 127; }; }
retry() { local n=$1 i; shift; for ((i = 1; i <= n; i++)); do "$@" && return 0; log warn "attempt $i failed"; done; return 1; }
: "${RETRIES:=2}"
S
. ./lib.sh
log info "retries=$RETRIES"
require sort && log info "sort found"
require no-such-tool; echo "require: $?"
flaky() { [ -f ok ] || { touch ok; return 1; }; }
retry 3 flaky && log info "flaky succeeded"
retry "$RETRIES" false; echo "retry false: $?"
type log | head -1
declare -F | grep -c -E ' (log|require|retry)$'
